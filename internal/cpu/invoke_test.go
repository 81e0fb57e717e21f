package cpu

import (
	"math"
	"reflect"
	"runtime"
	"testing"
)

// threadLike has the register shape of cuda.Thread: two integer words.
type threadLike struct {
	rec *[]any
	id  uint64
}

type view2 struct {
	data       []float64
	rows, cols int
}

type mixed struct {
	a float32
	b int16
	c float64
}

func record(t threadLike, args ...any) { *t.rec = append(*t.rec, append([]any{t.id}, args...)) }

func TestInvokerMatchesDirectCall(t *testing.T) {
	f32 := []float32{1, 2, 3}
	f64 := []float64{-1, math.Inf(1), math.NaN()}
	ints := []int{7, -7}
	tests := []struct {
		name string
		fn   any
		args []any
		fast bool
	}{
		{"one slice", func(t threadLike, a []float32) { record(t, a) }, []any{f32}, true},
		{"vector add", func(t threadLike, a, b, c []float32) { record(t, a, b, c) }, []any{f32, f32[1:], f32[:1]}, true},
		{"narrow scalars", func(t threadLike, a []float64, x float64, i int32, j int8, u uint16, ok bool) {
			record(t, a, x, i, j, u, ok)
		}, []any{f64, 2.5, int32(-5), int8(-128), uint16(65535), true}, true},
		{"floats", func(t threadLike, a float32, b float64, c float32, d int64) { record(t, a, b, c, d) },
			[]any{float32(-1.5), math.Pi, float32(math.MaxFloat32), int64(math.MinInt64)}, true},
		{"16 floats spill", func(t threadLike, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15 float64) {
			record(t, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)
		}, []any{0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0}, true},
		{"struct view", func(t threadLike, i int8, s []int, v view2, f float32) { record(t, i, s, v, f) },
			[]any{int8(3), ints, view2{f64, 1, 3}, float32(0.25)}, true},
		{"struct with floats", func(t threadLike, m mixed, n mixed, k uint8) { record(t, m, n, k) },
			[]any{mixed{1, -2, 3}, mixed{-4, 5, -6}, uint8(200)}, true},
		{"int after stack slice", func(t threadLike, a, b, c []float32, n int) { record(t, a, b, c, n) },
			[]any{f32, f32, f32, 42}, true},
		{"int32 then slice on stack", func(t threadLike, a, b []float32, x, y int32, c []float32, z float32) {
			record(t, a, b, x, y, c, z)
		}, []any{f32, f32, int32(1), int32(-1), f32, float32(9)}, true},
		{"seven slices", func(t threadLike, a, b, c, d, e, f, g []int) { record(t, a, b, c, d, e, f, g) },
			[]any{ints, ints, ints, ints, ints, ints, ints}, true},
		// On amd64 the eighth slice exceeds the fast path's stack words;
		// arm64 has more integer registers.
		{"eight slices", func(t threadLike, a, b, c, d, e, f, g, h []int) { record(t, a, b, c, d, e, f, g, h) },
			[]any{ints, ints, ints, ints, ints, ints, ints, ints}, runtime.GOARCH != "amd64"},
		{"thirteen slices fall back", func(t threadLike, a, b, c, d, e, f, g, h, i, j, k, l, m []int) {
			record(t, a, b, c, d, e, f, g, h, i, j, k, l, m)
		}, []any{ints, ints, ints, ints, ints, ints, ints, ints, ints, ints, ints, ints, ints}, false},
		{"no arguments", func(t threadLike) { record(t) }, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fn := reflect.ValueOf(tc.fn)
			args := make([]reflect.Value, len(tc.args))
			for i, a := range tc.args {
				args[i] = reflect.ValueOf(a)
			}
			inv, err := NewInvoker[threadLike](fn, args)
			if err != nil {
				t.Fatal(err)
			}
			if regABI && inv.Fast() != tc.fast {
				t.Errorf("Fast() = %v, want %v", inv.Fast(), tc.fast)
			}
			var got, want []any
			for id := range uint64(3) {
				inv.Call(threadLike{&got, id})
				fn.Call(append([]reflect.Value{reflect.ValueOf(threadLike{&want, id})}, args...))
			}
			if !equalNaN(got, want) {
				t.Errorf("invoker passed\n%v\ndirect call passed\n%v", got, want)
			}
		})
	}
}

// equalNaN is reflect.DeepEqual with NaN equal to itself.
func equalNaN(a, b []any) bool {
	return reflect.DeepEqual(fixNaN(a), fixNaN(b))
}

func fixNaN(v []any) []any {
	out := make([]any, len(v))
	for i, x := range v {
		switch y := x.(type) {
		case []any:
			out[i] = fixNaN(y)
		case []float64:
			z := make([]float64, len(y))
			for j, f := range y {
				if math.IsNaN(f) {
					f = -0.5
				}
				z[j] = f
			}
			out[i] = z
		default:
			out[i] = x
		}
	}
	return out
}

func TestNewInvokerRejectsMismatch(t *testing.T) {
	tests := []struct {
		name string
		fn   any
		args []any
	}{
		{"not a func", 3, nil},
		{"wrong first parameter", func(x int, a []float32) {}, []any{[]float32{}}},
		{"too few arguments", func(t threadLike, a []float32) {}, nil},
		{"wrong argument type", func(t threadLike, a []float32) {}, []any{[]float64{}}},
		{"result", func(t threadLike) int { return 0 }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var args []reflect.Value
			for _, a := range tc.args {
				args = append(args, reflect.ValueOf(a))
			}
			if _, err := NewInvoker[threadLike](reflect.ValueOf(tc.fn), args); err == nil {
				t.Fatal("NewInvoker accepted a mismatched call")
			}
		})
	}
}

var sink float32

func BenchmarkInvoker(b *testing.B) {
	a := make([]float32, 4)
	fn := func(t threadLike, x, y, z []float32) { sink += x[t.id&3] }
	args := []reflect.Value{reflect.ValueOf(a), reflect.ValueOf(a), reflect.ValueOf(a)}
	inv, err := NewInvoker[threadLike](reflect.ValueOf(fn), args)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fast", func(b *testing.B) {
		for i := range b.N {
			inv.Call(threadLike{nil, uint64(i)})
		}
	})
	b.Run("row", func(b *testing.B) {
		// Rows of 256, as a block of 256 threads calls them.
		var stop bool
		for i := 0; i < b.N; i += 256 {
			t := threadLike{nil, uint64(i)}
			inv.CallRow(&t, min(256, b.N-i), &stop)
		}
	})
	b.Run("reflect", func(b *testing.B) {
		call := reflectCall[threadLike](reflect.ValueOf(fn), args)
		for i := range b.N {
			call(threadLike{nil, uint64(i)})
		}
	})
	b.Run("direct", func(b *testing.B) {
		for i := range b.N {
			fn(threadLike{nil, uint64(i)}, a, a, a)
		}
	})
}

// rowProbe is what the functions of TestInvokerCallRow see: where to
// record their ids, and which id stops the row or panics.
type rowProbe struct {
	stop            *bool
	stopAt, panicAt uint64
}

func TestInvokerCallRow(t *testing.T) {
	pad := []int{1}
	fast := func(t threadLike, p rowProbe) { probe(t, p) }
	// Twelve slices take more stack than the fast path has on amd64 and arm64.
	slow := func(t threadLike, p rowProbe, a, b, c, d, e, f, g, h, i, j, k, l []int) { probe(t, p) }
	const none = ^uint64(0)
	tests := []struct {
		name            string
		first           uint64
		n               int
		stopAt, panicAt uint64
		want            []uint64 // ids called
		wantLast        uint64   // the id of the argument after CallRow
	}{
		{"whole row", 10, 5, none, none, []uint64{10, 11, 12, 13, 14}, 14},
		{"one call", 7, 1, none, none, []uint64{7}, 7},
		{"empty row", 7, 0, none, none, nil, 7},
		{"stop mid-row", 0, 8, 3, none, []uint64{0, 1, 2, 3}, 3},
		{"stop at last", 0, 4, 3, none, []uint64{0, 1, 2, 3}, 3},
		{"panic mid-row", 1 << 20, 6, none, 1<<20 + 2, []uint64{1 << 20, 1<<20 + 1, 1<<20 + 2}, 1<<20 + 2},
	}
	for _, fn := range []struct {
		name string
		fn   any
		fast bool
	}{{"fast", fast, true}, {"reflect", slow, false}} {
		for _, tc := range tests {
			t.Run(fn.name+"/"+tc.name, func(t *testing.T) {
				var stop bool
				args := []reflect.Value{reflect.ValueOf(rowProbe{&stop, tc.stopAt, tc.panicAt})}
				if !fn.fast {
					for range 12 {
						args = append(args, reflect.ValueOf(pad))
					}
				}
				inv, err := NewInvoker[threadLike](reflect.ValueOf(fn.fn), args)
				if err != nil {
					t.Fatal(err)
				}
				if regABI && inv.Fast() != fn.fast {
					t.Fatalf("Fast() = %v, want %v", inv.Fast(), fn.fast)
				}
				var got []any
				arg := threadLike{&got, tc.first}
				panicked := func() (p any) {
					defer func() { p = recover() }()
					inv.CallRow(&arg, tc.n, &stop)
					return nil
				}()
				var want []any
				for _, id := range tc.want {
					want = append(want, []any{id})
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("calls %v, want %v", got, want)
				}
				if arg.id != tc.wantLast || arg.rec != &got {
					t.Errorf("argument after the row has id %d, want %d", arg.id, tc.wantLast)
				}
				if (panicked != nil) != (tc.panicAt != none) {
					t.Errorf("panic %v, want one: %v", panicked, tc.panicAt != none)
				}
			})
		}
	}
}

func probe(t threadLike, p rowProbe) {
	record(t)
	if t.id == p.stopAt {
		*p.stop = true
	}
	if t.id == p.panicAt {
		panic("probe")
	}
}

func TestNewInvokerNeedsCounter(t *testing.T) {
	type noCounter struct {
		p *int
		n int64
	}
	fn := func(t noCounter) {}
	if _, err := NewInvoker[noCounter](reflect.ValueOf(fn), nil); err == nil {
		t.Fatal("NewInvoker accepted a first parameter without a uint64 counter")
	}
	if _, err := NewInvoker[uint64](reflect.ValueOf(func(uint64) {}), nil); err == nil {
		t.Fatal("NewInvoker accepted a first parameter that is not a struct")
	}
}
