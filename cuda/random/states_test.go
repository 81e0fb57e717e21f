package random

import (
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// jumpN must equal k calls of Jump, through the loop (k <= 4) and the
// matrix power alike.
func TestJumpNEqualsRepeatedJumps(t *testing.T) {
	for _, seed := range []uint64{0, 1, 0xdeadbeef, 1<<64 - 1} {
		want := make([]uint64, 2)
		InitState(want, 0, seed)
		for k := uint64(0); k <= 40; k++ {
			got := make([]uint64, 2)
			InitState(got, 0, seed)
			jumpN(got, 0, k)
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d: jumpN(%d) = %#x, %d Jumps give %#x", seed, k, got, k, want)
			}
			Jump(want, 0)
		}
	}
}

// Jumps compose: a jumps then b jumps is a+b jumps, for counts far past
// what a loop could do.
func TestJumpNComposes(t *testing.T) {
	for _, c := range []struct{ a, b uint64 }{
		{1 << 40, 1 << 40},
		{1<<63 - 1, 1},
		{123456789012345, 987654321098765},
		{7, 1<<64 - 8},
	} {
		one := []uint64{0x0123456789abcdef, 0xfedcba9876543210}
		two := slices.Clone(one)
		jumpN(one, 0, c.a)
		jumpN(one, 0, c.b)
		jumpN(two, 0, c.a+c.b)
		if !slices.Equal(one, two) {
			t.Errorf("jumpN(%d) then jumpN(%d) = %#x; jumpN(%d) = %#x", c.a, c.b, one, c.a+c.b, two)
		}
	}
	// The period is 2^128-1 steps, so 2^64 jumps of 2^64 steps
	// (jumpN(2^64-1) then one more) land one step past the start.
	s := []uint64{0x0123456789abcdef, 0xfedcba9876543210}
	next := slices.Clone(s)
	Next(next, 0)
	jumpN(s, 0, 1<<64-1)
	Jump(s, 0)
	if !slices.Equal(s, next) {
		t.Errorf("2^128 steps reach %#x, not %#x one step past the start", s, next)
	}
}

func TestInitLayout(t *testing.T) {
	s, err := HostStates(4, 42, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Generator i+1 is generator i jumped once; generator 0 is splitmix64's.
	first := make([]uint64, 2)
	InitState(first, 0, 42)
	if s[0] != first[0] || s[1] != first[1] {
		t.Errorf("generator 0 = %#x, InitState gives %#x", s[:2], first)
	}
	for i := 1; i < 4; i++ {
		g := slices.Clone(s[2*i-2 : 2*i])
		Jump(g, 0)
		if !slices.Equal(g, s[2*i:2*i+2]) {
			t.Errorf("generator %d = %#x, generator %d jumped = %#x", i, s[2*i:2*i+2], i-1, g)
		}
	}
	// A subsequence start shifts the whole array by that many generators.
	shifted, err := HostStates(2, 42, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(shifted, s[4:8]) {
		t.Errorf("HostStates(2, 42, 2) = %#x, want generators 2 and 3 of HostStates(4, 42, 0) %#x", shifted, s[4:8])
	}
}

func TestInitErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"odd slice", func() error { return Init(make([]uint64, 3), 1, 0) }, "odd"},
		{"negative n", func() error { _, err := HostStates(-1, 1, 0); return err }, "negative"},
		{"huge n", func() error { _, err := HostStates(1<<62, 1, 0); return err }, "too many"},
		{"NewStates negative n", func() error { _, err := NewStates(-5, 1); return err }, "negative"},
		{"InitDevice nil", func() error { return InitDevice(nil, 1, 0) }, "nil"},
	} {
		err := c.run()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if err := Init(nil, 1, 0); err != nil {
		t.Errorf("Init(nil): %v", err)
	}
	if s, err := HostStates(0, 1, 0); err != nil || len(s) != 0 {
		t.Errorf("HostStates(0) = %v, %v; want empty", s, err)
	}
}

func TestDeviceStates(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	want, err := HostStates(100, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewStatesAsync(100, 7, 3, stream)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Free()
	if err := stream.Synchronize(); err != nil {
		t.Fatal(err)
	}
	got, err := d.ToHost()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("NewStatesAsync(100, 7, 3) differs from HostStates")
	}

	// InitDevice reseeds in place.
	if err := InitDevice(d, 8, 0); err != nil {
		t.Fatal(err)
	}
	want8, _ := HostStates(100, 8, 0)
	if got, _ = d.ToHost(); !slices.Equal(got, want8) {
		t.Fatalf("InitDevice(d, 8, 0) differs from HostStates(100, 8, 0)")
	}
	d0, err := NewStates(10, 8)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ = d0.ToHost(); !slices.Equal(got, want8[:20]) {
		t.Fatalf("NewStates(10, 8) differs from HostStates(10, 8, 0)")
	}
	odd, err := cuda.NewDeviceArray[uint64](3)
	if err != nil {
		t.Fatal(err)
	}
	if err := InitDevice(odd, 1, 0); err == nil || !strings.Contains(err.Error(), "odd") {
		t.Errorf("InitDevice of 3 elements: error %v, want one saying odd", err)
	}
	if err := d0.Free(); err != nil {
		t.Fatal(err)
	}
	if err := InitDevice(d0, 1, 0); err == nil {
		t.Errorf("InitDevice after Free: no error")
	}
}

// Init's parallel chunks and table-driven jumps give what a plain chain
// of Jump calls gives, for every generator (the chunk boundaries included).
func TestInitParallelEqualsJumpChain(t *testing.T) {
	const n = 3*chunkGenerators + 5
	got, err := HostStates(n, 99, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]uint64, 2*n)
	InitState(want, 0, 99)
	Jump(want, 0)
	Jump(want, 0)
	for i := 1; i < n; i++ {
		want[2*i], want[2*i+1] = want[2*i-2], want[2*i-1]
		Jump(want, i)
	}
	for i := range n {
		if got[2*i] != want[2*i] || got[2*i+1] != want[2*i+1] {
			t.Fatalf("generator %d = %#x, a chain of Jumps gives %#x", i, got[2*i:2*i+2], want[2*i:2*i+2])
		}
	}
}

// The byte table applies the same map as the matrix it tabulates.
func TestByteTableEqualsMatrix(t *testing.T) {
	m := jumpPowers()[5]
	tab := newByteTable(m)
	v := state{1, 0}
	for range 1000 {
		if got, want := tab.apply(v), m.apply(v); got != want {
			t.Fatalf("table·%#x = %#x, matrix·%#x = %#x", v, got, v, want)
		}
		v = state{v[0]*6364136223846793005 + 1442695040888963407, v[1] ^ v[0]<<7 ^ v[0]>>3}
	}
}
