package compiler

import (
	"fmt"
	"strings"
	"testing"
)

const escapeSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func newVal(v int64) *int64 {
	x := v
	return &x
}

// bigNewVal is over the inlining size limit: it must be inlined anyway,
// since it returns the address of its own variable.
func bigNewVal(v int64) *int64 {
	var a [8]int64
	for k := range a {
		a[k] = v*int64(k) + 1
		if a[k]%3 == 0 { a[k]++ }
		if a[k]%5 == 0 { a[k]-- }
		if a[k]%7 == 0 { a[k] += 2 }
		if a[k]%11 == 0 { a[k] -= 3 }
		if a[k]%13 == 0 { a[k] *= 2 }
		if a[k]%17 == 0 { a[k] /= 2 }
		if a[k]%19 == 0 { a[k] ^= 5 }
		if a[k]%23 == 0 { a[k] |= 8 }
		if a[k]%29 == 0 { a[k] &= 255 }
		if a[k]%31 == 0 { a[k] <<= 1 }
	}
	return &a[v&7]
}

// deep returns its own variable's address from a recursion.
func deep(n int64) *int64 {
	if n > 0 {
		return deep(n - 1)
	}
	x := n
	return &x
}

type holder struct{ p *int64 }

// deepStore lets its variable out through a store into the caller's memory.
func deepStore(h *holder, n int64) {
	if n > 0 {
		deepStore(h, n-1)
		return
	}
	x := n
	h.p = &x
}

// deepSafe recurses with the address of its variable, which stays inside.
func deepSafe(p *int64, n int64) int64 {
	x := n
	if n > 0 {
		return deepSafe(&x, n-1) + *p
	}
	return *p
}

func inlined(t cuda.Thread, out []int64) {
	out[0] = *newVal(3) + *bigNewVal(int64(t.Grid1()))
}

func refusedReturn(t cuda.Thread, out []int64) {
	out[0] = *deep(int64(t.Grid1()))
}

func refusedStore(t cuda.Thread, out []int64) {
	var h holder
	deepStore(&h, 3)
	out[0] = *h.p
}

func allowed(t cuda.Thread, out []int64) {
	x := int64(1)
	out[0] = deepSafe(&x, 3)
}
`

// TestLocalAddressEscape: a device function that returns (or stores) the
// address of its own variable is inlined, whatever its size, so that the
// variable lives in the caller's frame and the address is converted to a
// generic one; a recursive one is refused at the return or store.
func TestLocalAddressEscape(t *testing.T) {
	tests := []struct {
		kernel string
		want   string // error text; "" compiles
	}{
		{"inlined", ""},
		{"allowed", ""},
		{"refusedReturn", "kernel.go:36:2: cannot let the address of a local variable of deep out of it: it calls itself"},
		{"refusedStore", "kernel.go:48:4: cannot let the address of a local variable of deepStore out of it"},
	}
	for _, tt := range tests {
		t.Run(tt.kernel, func(t *testing.T) {
			m, err := compileSrc(t, escapeSrc, tt.kernel, Target{})
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("got %v, want an error containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.kernel == "inlined" {
				if strings.Contains(m.PTX, "call") {
					t.Errorf("newVal and bigNewVal are not inlined:\n%s", m.PTX)
				}
				if !strings.Contains(m.PTX, "cvta.local.u64") {
					t.Errorf("the returned local addresses are not made generic:\n%s", m.PTX)
				}
			}
			assembleAll(t, tt.kernel, m)
		})
	}
}

// TestLocalMemoryLimit: a function whose variables exceed CUDA's 512 KiB of
// local memory per thread is refused at the variable (issue 21, item 16);
// one just under it compiles.
func TestLocalMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{65536, ""},
		{65537, "kernel.go:6:6: the local variables of big take 524296 bytes, more than the 524288 bytes (512 KiB)"},
	} {
		src := fmt.Sprintf(`package k

import "github.com/nugo-dev/nugo/cuda"

func big(t cuda.Thread, a []int64) {
	var buf [%d]int64
	buf[t.Grid1()%%%d] = 1
	a[0] = buf[5]
}
`, c.n, c.n)
		_, err := compileSrc(t, src, "big", Target{})
		if c.want == "" {
			if err != nil {
				t.Errorf("%d elements: %v", c.n, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d elements: %v, want %q", c.n, err, c.want)
		}
	}
}

// TestLoopVariableAddressKept: the address of a variable made anew in each
// iteration (Go 1.22 loop bodies, or an inlined device function's own
// variable) kept past the iteration is refused; one used within its
// iteration compiles.
func TestLoopVariableAddressKept(t *testing.T) {
	const src = `package k

import "github.com/nugo-dev/nugo/cuda"

func newVal(v int64) *int64 {
	x := v
	return &x
}

func stored(t cuda.Thread, out []int64) {
	var ps [2]*int64
	for j := 0; j < 2; j++ {
		x := int64(j + 10)
		ps[j] = &x
	}
	out[0] = *ps[0] + 100**ps[1]
}

func storedFromCall(t cuda.Thread, out []int64) {
	var ps [2]*int64
	for j := 0; j < 2; j++ {
		ps[j] = newVal(int64(j))
	}
	out[0] = *ps[0] + *ps[1]
}

func carried(t cuda.Thread, out []int64) {
	p := &out[0]
	for j := 0; j < 2; j++ {
		x := int64(j)
		*p += 1
		p = &x
	}
	out[1] = *p
}

func withinIteration(t cuda.Thread, out []int64) {
	for j := 0; j < 4; j++ {
		x := int64(j)
		p := &x
		if j%2 == 0 {
			p = newVal(int64(j) * 3)
		}
		*p += 1
		out[j] = *p
	}
}
`
	for _, c := range []struct {
		kernel, want string
	}{
		{"stored", "kernel.go:14:5: the address of x, made anew in each iteration of a loop, is kept past its iteration"},
		{"storedFromCall", "the address of the variable of newVal, made anew in each iteration"},
		{"carried", "the address of x, made anew in each iteration of a loop, is kept past its iteration"},
		{"withinIteration", ""},
	} {
		_, err := compileSrc(t, src, c.kernel, Target{})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.kernel, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.kernel, err, c.want)
		}
	}
}
