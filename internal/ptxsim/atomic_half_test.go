package ptxsim

import (
	"encoding/binary"
	"strings"
	"testing"
)

func u16at(b []byte, off int) uint16 { return binary.LittleEndian.Uint16(b[off:]) }

// TestHalfAtomicOps: atom.add.noftz.f16 stores the correctly rounded half
// sum (internal/half's, as add.rn.f16) and atom.cas.b16 compares 16 bits,
// on global and shared memory, in either half of a 32-bit word, and leave
// the other half alone.
func TestHalfAtomicOps(t *testing.T) {
	cases := []struct {
		op             string
		old, b, c, new uint16
	}{
		{"add.noftz.f16", 0x6800, 0x3C00, 0, 0x6800}, // 2048 + 1: tie to even
		{"add.noftz.f16", 0x6801, 0x3C00, 0, 0x6802}, // 2050 + 1: tie to even 2052
		{"add.noftz.f16", 0x3C00, 0x1200, 0, 0x3C01}, // 1 + 3·2^-12 rounds up
		{"add.noftz.f16", 0x7BFF, 0x4C00, 0, 0x7C00}, // 65504 + 16: Inf
		{"add.noftz.f16", 0x7C00, 0xFC00, 0, 0x7FFF}, // Inf - Inf: canonical NaN
		{"add.noftz.f16", 0x0001, 0x0001, 0, 0x0002}, // subnormals kept (noftz)
		{"add.noftz.f16", 0x8000, 0x8000, 0, 0x8000}, // -0 + -0
		{"cas.b16", 0x1234, 0x1234, 0xBEEF, 0xBEEF},  // equal: swapped
		{"cas.b16", 0x8000, 0x0000, 0xBEEF, 0x8000},  // -0 is not +0
		{"cas.b16", 0x1234, 0x1235, 0xBEEF, 0x1234},  // other bits: kept
	}
	for _, c := range cases {
		for _, space := range []string{"global", "shared"} {
			for _, off := range []int{0, 2} {
				ops := "%h0, [%rd4], %h1"
				if strings.HasPrefix(c.op, "cas") {
					ops += ", %h2"
				}
				src := header + `
.visible .entry k(.param .u64 b, .param .u64 c, .param .u64 out)
{
	.shared .align 4 .b8 sh[8];
	.reg .b64 %rd<8>;
	.reg .b32 %r<2>;
	.reg .b16 %h<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [b];
	ld.param.u64 %rd3, [c];
	cvt.u16.u64 %h1, %rd2;
	cvt.u16.u64 %h2, %rd3;
	ld.global.b32 %r1, [%rd1];
	SETUP
	atom.SPACE.` + c.op + " " + ops + `;
	GETBACK
	st.global.b16 [%rd1+8], %h0;
	ret;
}`
				setup, back := "add.s64 %rd4, %rd1, OFF;", ""
				if space == "shared" {
					setup = "st.shared.b32 [sh], %r1;\n\tmov.u64 %rd4, sh;\n\tadd.s64 %rd4, %rd4, OFF;"
					back = "ld.shared.b32 %r1, [sh];\n\tst.global.b32 [%rd1], %r1;"
				}
				src = strings.NewReplacer("SETUP", setup, "GETBACK", back, "SPACE", space).Replace(src)
				src = strings.ReplaceAll(src, "OFF", itoa(off))
				m, err := Parse(src)
				if err != nil {
					t.Fatalf("%s: %v", c.op, err)
				}
				mem := NewMemory()
				p, _ := m.Load(mem)
				addr, out := mem.Alloc(16)
				binary.LittleEndian.PutUint32(out, 0xA5A5A5A5)
				binary.LittleEndian.PutUint16(out[off:], c.old)
				params, _ := PackParams(m, "k", uint64(c.b), uint64(c.c), addr)
				if err := p.Run(Config{Kernel: "k", Params: params}); err != nil {
					t.Fatalf("%s %s: %v", c.op, space, err)
				}
				what := c.op + " " + space + " at " + itoa(off)
				if got := u16at(out, off); got != c.new {
					t.Errorf("%s old=%#04x b=%#04x: memory %#04x, want %#04x", what, c.old, c.b, got, c.new)
				}
				if got := u16at(out, 2-off); got != 0xA5A5 {
					t.Errorf("%s: the other half became %#04x", what, got)
				}
				if got := u16at(out, 8); got != c.old {
					t.Errorf("%s: returned %#04x, want the old %#04x", what, got, c.old)
				}
			}
		}
	}
}

// TestHalfAtomicsUnderContention: blocks on four workers add 1.0 to both
// halves of one word, and count with a CAS loop on a third half (the
// compiler's loop for AtomicExch, Max and Min: ld.volatile.b16 then
// atom.cas.b16), plus a shared counter per block; 2048 threads keep every
// sum exact in half.
func TestHalfAtomicsUnderContention(t *testing.T) {
	src := header + `
.visible .entry k(.param .u64 g)
{
	.shared .align 4 .b16 scount;
	.reg .pred %p<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.reg .b16 %h<8>;
	ld.param.u64 %rd1, [g];
	mov.u32 %r1, %tid.x;
	setp.eq.u32 %p1, %r1, 0;
	mov.b16 %h7, 0;
	@%p1 st.shared.b16 [scount], %h7;
	bar.sync 0;
	mov.b16 %h1, 0x3C00;
	atom.global.add.noftz.f16 %h2, [%rd1], %h1;
	atom.global.add.noftz.f16 %h2, [%rd1+2], %h1;
	atom.shared.add.noftz.f16 %h2, [scount], %h1;
	ld.global.volatile.b16 %h3, [%rd1+4];
L:
	add.rn.f16 %h4, %h3, %h1;
	atom.global.cas.b16 %h5, [%rd1+4], %h3, %h4;
	setp.eq.b16 %p2, %h5, %h3;
	mov.b16 %h3, %h5;
	@!%p2 bra L;
	bar.sync 0;
	@!%p1 bra END;
	ld.shared.b16 %h6, [scount];
	atom.global.add.noftz.f16 %h2, [%rd1+6], %h6;
END:
	ret;
}`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	p, _ := m.Load(mem)
	const blocks, bs = 16, 128
	gAddr, g := mem.Alloc(8)
	params, _ := PackParams(m, "k", gAddr)
	if err := p.Run(Config{Kernel: "k", Grid: [3]int{blocks}, Block: [3]int{bs}, Params: params, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	const n = 0x6800 // 2048 in half
	for i, what := range []string{"low half", "high half", "CAS loop", "sum of shared counts"} {
		if got := u16at(g, 2*i); got != n {
			t.Errorf("%s = %#04x, want %#04x (2048)", what, got, n)
		}
	}
}

// The 16-bit atomics are add.noftz.f16 and cas.b16; PTX has no others.
func TestHalfAtomicDecodeRefuses(t *testing.T) {
	for _, inst := range []string{"atom.global.add.b16", "atom.global.exch.b16", "atom.global.max.f16", "atom.global.cas.f16", "atom.global.add.u16"} {
		src := header + `
.visible .entry k(.param .u64 g)
{
	.reg .b64 %rd<2>;
	.reg .b16 %h<4>;
	ld.param.u64 %rd1, [g];
	` + inst + ` %h0, [%rd1], %h1;
	ret;
}`
		if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), "not") {
			t.Errorf("%s: parsed (err %v), want a refusal", inst, err)
		}
	}
}
