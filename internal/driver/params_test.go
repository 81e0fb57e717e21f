package driver

import (
	"bytes"
	"testing"
)

func TestParamsLayout(t *testing.T) {
	var p Params
	p.AddU8(1)              // offset 0
	p.AddU32(0x04030201)    // aligned to 4
	p.AddU16(0xBBAA)        // offset 8
	p.AddF64(1)             // aligned to 8 → offset 16
	p.AddPtr(0x1122334455)  // offset 24
	p.AddF32(-2)            // offset 32
	p.Add([]byte{9, 9}, 16) // offset 48
	wantOffs := []int{0, 4, 8, 16, 24, 32, 48}
	if p.Len() != len(wantOffs) {
		t.Fatalf("Len = %d", p.Len())
	}
	for i, off := range wantOffs {
		if p.Offset(i) != off {
			t.Errorf("arg %d at %d, want %d", i, p.Offset(i), off)
		}
	}
	want := map[int][]byte{
		1: {1, 2, 3, 4},
		2: {0xAA, 0xBB},
		3: {0, 0, 0, 0, 0, 0, 0xF0, 0x3F},
		4: {0x55, 0x44, 0x33, 0x22, 0x11, 0, 0, 0},
		5: {0, 0, 0, 0xC0},
		6: {9, 9},
	}
	for i, b := range want {
		if !bytes.Equal(p.Arg(i), b) {
			t.Errorf("arg %d = %x, want %x", i, p.Arg(i), b)
		}
	}
	if len(p.Bytes()) != 50 {
		t.Errorf("buffer is %d bytes, want 50", len(p.Bytes()))
	}
	p.Reset()
	p.AddU64(7)
	if p.Len() != 1 || len(p.Bytes()) != 8 || p.Offset(0) != 0 {
		t.Fatalf("after Reset: %d args, %d bytes", p.Len(), len(p.Bytes()))
	}
}

func TestParamsReuseDoesNotAllocate(t *testing.T) {
	var p Params
	pack := func() {
		p.Reset()
		p.AddPtr(0x1000)
		p.AddU64(1 << 20)
		p.AddF32(1.5)
		p.AddU8(1)
	}
	pack()
	if n := testing.AllocsPerRun(100, pack); n != 0 {
		t.Fatalf("repacking allocates %v times", n)
	}
}

func BenchmarkParamsPack(b *testing.B) {
	var p Params
	for b.Loop() {
		p.Reset()
		p.AddPtr(0x1000)
		p.AddU64(1 << 20)
		p.AddU64(1 << 20)
		p.AddF64(2.5)
	}
}
