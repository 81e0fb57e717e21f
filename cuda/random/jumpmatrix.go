package random

import "sync"

// xoroshiro128+'s state transition is linear over GF(2), and so is Jump:
// a 128×128 bit matrix. Jumping k times is applying its k-th power, which
// repeated squaring computes in at most 64 squarings, so Init takes the
// same time for subsequence 10^18 as for 1 (Numba loops k times).

// state is a generator's 128 bits: s0, s1.
type state [2]uint64

// matrix is a linear map on states, stored by columns: col[j] is the image
// of the state whose only set bit is bit j (bits 0-63 in s0, 64-127 in s1).
type matrix [128]state

// apply returns m·v.
func (m *matrix) apply(v state) state {
	var r state
	for w := 0; w < 2; w++ {
		for b := 0; b < 64; b++ {
			if v[w]>>uint(b)&1 != 0 {
				c := m[64*w+b]
				r[0] ^= c[0]
				r[1] ^= c[1]
			}
		}
	}
	return r
}

// mul returns a·b (b applied first).
func mul(a, b *matrix) *matrix {
	var r matrix
	for j := range b {
		r[j] = a.apply(b[j])
	}
	return &r
}

// jumpMatrix is Jump's matrix, built once from Jump itself.
var jumpMatrix = sync.OnceValue(func() *matrix {
	var m matrix
	s := make([]uint64, 2)
	for j := range m {
		s[0], s[1] = 0, 0
		s[j/64] = 1 << uint(j%64)
		Jump(s, 0)
		m[j] = state{s[0], s[1]}
	}
	return &m
})

// jumpN advances generator i of states by k jumps of 2^64 steps each,
// with the same result as calling Jump k times.
func jumpN(states []uint64, i int, k uint64) {
	if k == 0 {
		return
	}
	if k <= 4 { // cheaper than building powers
		for ; k > 0; k-- {
			Jump(states, i)
		}
		return
	}
	v := state{states[2*i], states[2*i+1]}
	p := jumpMatrix()
	for {
		if k&1 != 0 {
			v = p.apply(v)
		}
		k >>= 1
		if k == 0 {
			break
		}
		p = mul(p, p)
	}
	states[2*i], states[2*i+1] = v[0], v[1]
}
