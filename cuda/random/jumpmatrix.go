package random

import (
	"math/bits"
	"sync"
)

// xoroshiro128+'s state transition is linear over GF(2), and so is Jump:
// a 128×128 bit matrix J. Jumping k times is applying J^k, the product of
// the powers J^(2^b) for the set bits b of k; those 64 powers are squared
// once, so Init takes the same time for subsequence 10^18 as for 1 (Numba
// loops k times).

// state is a generator's 128 bits: s0, s1.
type state [2]uint64

// matrix is a linear map on states, stored by columns: col[j] is the image
// of the state whose only set bit is bit j (bits 0-63 in s0, 64-127 in s1).
type matrix [128]state

// apply returns m·v.
func (m *matrix) apply(v state) state {
	// Branch-free: half the bits are set, at random, which a branch
	// would mispredict.
	var r0, r1 uint64
	lo, hi := m[:64], m[64:]
	for b := range 64 {
		mask := -(v[0] >> uint(b) & 1)
		r0 ^= lo[b][0] & mask
		r1 ^= lo[b][1] & mask
	}
	for b := range 64 {
		mask := -(v[1] >> uint(b) & 1)
		r0 ^= hi[b][0] & mask
		r1 ^= hi[b][1] & mask
	}
	return state{r0, r1}
}

// mul returns a·b (b applied first).
func mul(a, b *matrix) *matrix {
	var r matrix
	for j := range b {
		r[j] = a.apply(b[j])
	}
	return &r
}

// jumpPowers holds Jump's matrix raised to 2^k for k = 0..63, built once
// from Jump itself (about a millisecond) on first use and read-only after.
var jumpPowers = sync.OnceValue(func() *[64]*matrix {
	var m matrix
	s := make([]uint64, 2)
	for j := range m {
		s[0], s[1] = 0, 0
		s[j/64] = 1 << uint(j%64)
		Jump(s, 0)
		m[j] = state{s[0], s[1]}
	}
	var p [64]*matrix
	p[0] = &m
	for k := 1; k < 64; k++ {
		p[k] = mul(p[k-1], p[k-1])
	}
	return &p
})

// jumpN advances generator i of states by k jumps of 2^64 steps each,
// with the same result as calling Jump k times.
func jumpN(states []uint64, i int, k uint64) {
	if k == 0 {
		return
	}
	v := state{states[2*i], states[2*i+1]}
	p := jumpPowers()
	for b := 0; k != 0; b, k = b+1, k>>1 {
		if k&1 != 0 {
			v = p[b].apply(v)
		}
	}
	states[2*i], states[2*i+1] = v[0], v[1]
}

// byteTable applies a matrix a byte of the input at a time: entry
// [k][x] is the image of the state whose only bits are byte x at byte
// position k (bytes 0-7 in s0, 8-15 in s1). Applying it is 16 lookups
// instead of 128 masked XORs; the table is 64 KiB.
type byteTable [16][256]state

// newByteTable tabulates m.
func newByteTable(m *matrix) *byteTable {
	var t byteTable
	for k := range t {
		for x := 1; x < 256; x++ {
			low := x & -x // lowest set bit: the rest was tabulated before
			c := m[8*k+bits.TrailingZeros(uint(low))]
			prev := t[k][x&^low]
			t[k][x] = state{prev[0] ^ c[0], prev[1] ^ c[1]}
		}
	}
	return &t
}

// apply returns m·v for the table's m.
func (t *byteTable) apply(v state) state {
	var r0, r1 uint64
	for k := range 8 {
		a := &t[k][byte(v[0]>>(8*uint(k)))]
		b := &t[8+k][byte(v[1]>>(8*uint(k)))]
		r0 ^= a[0] ^ b[0]
		r1 ^= a[1] ^ b[1]
	}
	return state{r0, r1}
}

// jumpTable is Jump as a byteTable, built on first use.
var jumpTable = sync.OnceValue(func() *byteTable { return newByteTable(jumpPowers()[0]) })
