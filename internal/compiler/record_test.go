package compiler

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// goPanic runs f and returns the runtime error it panics with, without
// "runtime error: ".
func goPanic(f func()) (msg string) {
	defer func() {
		msg = strings.TrimPrefix(fmt.Sprint(recover()), "runtime error: ")
	}()
	f()
	return "no panic"
}

// record makes a filled error record of thread 0 at site 0.
func record(code int, x, y int64, unsigned bool) []byte {
	return EncodeRecord(code, 0, unsigned, [3]int{}, [3]int{}, x, y)
}

// Each bounds code decodes to the message Go's runtime gives for the
// failing check it stands for, with the same x and y, for signed x
// (negative ones included) and unsigned x (past the int64 range included).
func TestDecodeRecordMatchesGoRuntime(t *testing.T) {
	var sink []int
	var sinkA *[4]int
	// Each trigger fails the check with x and y (y: a length or bound).
	triggers := []struct {
		code    int
		name    string
		ys      []int
		signed  func(x int64, y int)
		unsignd func(x uint64, y int)
	}{
		{ErrIndex, "s[x]", []int{0, 4}, func(x int64, y int) { _ = make([]int, y)[x] }, func(x uint64, y int) { _ = make([]int, y)[x] }},
		{ErrSliceAcap, "s[:x]", []int{0, 4}, func(x int64, y int) { sink = make([]int, y)[:x] }, func(x uint64, y int) { sink = make([]int, y)[:x] }},
		{ErrSliceAlen, "a[:x]", []int{4}, func(x int64, y int) { sink = new([4]int)[:x] }, func(x uint64, y int) { sink = new([4]int)[:x] }},
		{ErrSliceB, "s[x:y]", []int{0, 4}, func(x int64, y int) { sink = make([]int, y)[x:y] }, func(x uint64, y int) { sink = make([]int, y)[x:y] }},
		{ErrSlice3Acap, "s[:0:x]", []int{0, 4}, func(x int64, y int) { sink = make([]int, y)[:0:x] }, func(x uint64, y int) { sink = make([]int, y)[:0:x] }},
		{ErrSlice3Alen, "a[:0:x]", []int{4}, func(x int64, y int) { sink = new([4]int)[:0:x] }, func(x uint64, y int) { sink = new([4]int)[:0:x] }},
		{ErrSlice3B, "s[:x:y]", []int{0, 4}, func(x int64, y int) { sink = make([]int, y)[:x:y] }, func(x uint64, y int) { sink = make([]int, y)[:x:y] }},
		{ErrSlice3C, "s[x:y:y]", []int{0, 4}, func(x int64, y int) { sink = make([]int, y)[x:y:y] }, func(x uint64, y int) { sink = make([]int, y)[x:y:y] }},
	}
	for _, tr := range triggers {
		for _, y := range tr.ys {
			for _, x := range []int64{5, 17, -1, -3, math.MinInt64, math.MaxInt64} {
				want := goPanic(func() { tr.signed(x, y) })
				if got, _ := (&Module{}).DecodeRecord(record(tr.code, x, int64(y), false)); got.Msg != want || got.Code != tr.code {
					t.Errorf("%s, x %d, y %d: code %d %q, Go says %q", tr.name, x, y, got.Code, got.Msg, want)
				}
			}
			for _, x := range []uint64{5, 1 << 63, math.MaxUint64} {
				want := goPanic(func() { tr.unsignd(x, y) })
				if got, _ := (&Module{}).DecodeRecord(record(tr.code, int64(x), int64(y), true)); got.Msg != want {
					t.Errorf("%s, unsigned x %d, y %d: %q, Go says %q", tr.name, x, y, got.Msg, want)
				}
			}
		}
	}
	for _, n := range []int{0, 3} {
		want := goPanic(func() { sinkA = (*[4]int)(make([]int, n)) })
		if got, _ := (&Module{}).DecodeRecord(record(ErrConvert, 4, int64(n), false)); got.Msg != want {
			t.Errorf("(*[4]int)(s) of %d: %q, Go says %q", n, got.Msg, want)
		}
	}
	for _, c := range []struct {
		code int
		f    func()
	}{
		{ErrDivide, func() { d := 0; _ = 1 / d }},
		{ErrShift, func() { s := -1; _ = 1 << s }},
	} {
		want := goPanic(c.f)
		if got, _ := (&Module{}).DecodeRecord(record(c.code, 0, 0, false)); got.Msg != want {
			t.Errorf("code %d: %q, Go says %q", c.code, got.Msg, want)
		}
	}
	_, _ = sink, sinkA
}

// An unfilled record decodes as no failure; a short one and an unknown
// code say what they are.
func TestDecodeRecordEdges(t *testing.T) {
	m := &Module{Sites: []Site{{Pos: "k.go:3:4"}}}
	if _, ok := m.DecodeRecord(make([]byte, ErrorRecordSize)); ok {
		t.Error("a zero record decoded as a failure")
	}
	if f, ok := m.DecodeRecord(make([]byte, 8)); !ok || f.Code != -1 || !strings.Contains(f.Msg, "8 bytes") {
		t.Errorf("a short record: %+v, %v", f, ok)
	}
	f, ok := m.DecodeRecord(record(99, 7, 2, false))
	if !ok || f.Msg != "debug check 99 failed (value 7, bound 2)" || f.Pos != "k.go:3:4" {
		t.Errorf("unknown code: %+v, %v", f, ok)
	}
}

// The record's packed fields come back whole at CUDA's limits: the block
// and thread of the failure, the site, every value.
func TestRecordRoundTrip(t *testing.T) {
	sites := make([]Site, 70000)
	for i := range sites {
		sites[i].Pos = fmt.Sprintf("k.go:%d:1", i)
	}
	m := &Module{Sites: sites}
	for _, c := range []struct {
		site          int
		block, thread [3]int
	}{
		{0, [3]int{0, 0, 0}, [3]int{0, 0, 0}},
		{1, [3]int{1<<31 - 1, 65535, 65535}, [3]int{1023, 1023, 63}},
		{69999, [3]int{7, 65534, 1}, [3]int{1, 1023, 0}},
		{300, [3]int{0, 1, 65535}, [3]int{1023, 0, 63}},
	} {
		vals := []int64{-1, math.MaxInt64, math.MinInt64, 3, 4, 5}
		f, ok := m.DecodeRecord(EncodeRecord(ErrIndex3, c.site, false, c.block, c.thread, vals...))
		want := fmt.Sprintf("index (%d,%d,%d) out of range for shape (%d,%d,%d)", vals[0], vals[1], vals[2], vals[3], vals[4], vals[5])
		if !ok || f.Code != ErrIndex3 || f.Block != c.block || f.Thread != c.thread || f.Pos != sites[c.site].Pos || f.Msg != want {
			t.Errorf("site %d block %v thread %v: decoded %+v", c.site, c.block, c.thread, f)
		}
	}
	// A site the module does not have has no position.
	if f, _ := m.DecodeRecord(EncodeRecord(ErrDivide, len(sites), false, [3]int{}, [3]int{})); f.Pos != "" || f.Msg != "integer divide by zero" {
		t.Errorf("unknown site: %+v", f)
	}
}
