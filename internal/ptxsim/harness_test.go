package ptxsim

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

// opCase runs one PTX instruction over many operand vectors, one thread per
// vector: sources are loaded from a global input buffer (8 bytes per
// operand), the destination is stored to an output buffer (8 bytes per
// thread). Width 1 means a predicate.
type opCase struct {
	inst string // e.g. "add.s32"
	srcW []int
	dstW int
}

func regName(w, k int, dst bool) string {
	prefix := map[int]string{1: "%p", 16: "%h", 32: "%r", 64: "%rd"}[w]
	if dst {
		return fmt.Sprintf("%s%d", prefix, 9)
	}
	return fmt.Sprintf("%s%d", prefix, k+1)
}

func (c opCase) ptx() string {
	var b strings.Builder
	n := len(c.srcW)
	fmt.Fprintf(&b, `.version 7.8
.target sm_75
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
	.reg .pred %%p<10>;
	.reg .b16 %%h<10>;
	.reg .b32 %%r<10>;
	.reg .b64 %%rd<10>;
	.reg .b32 %%t<4>;
	.reg .b64 %%a<4>;
	ld.param.u64 %%a1, [pin];
	ld.param.u64 %%a2, [pout];
	ld.param.u32 %%t3, [pn];
	mov.u32 %%t0, %%tid.x;
	mov.u32 %%t1, %%ctaid.x;
	mov.u32 %%t2, %%ntid.x;
	mad.lo.s32 %%t0, %%t1, %%t2, %%t0;
	setp.ge.u32 %%p0, %%t0, %%t3;
	@%%p0 bra DONE;
	mul.wide.u32 %%a0, %%t0, %d;
	add.s64 %%a1, %%a1, %%a0;
	mul.wide.u32 %%a0, %%t0, 8;
	add.s64 %%a2, %%a2, %%a0;
`, 8*n)
	var srcs []string
	for k, w := range c.srcW {
		r := regName(w, k, false)
		switch w {
		case 1:
			fmt.Fprintf(&b, "\tld.global.u32 %%t1, [%%a1+%d];\n\tsetp.ne.u32 %s, %%t1, 0;\n", 8*k, r)
		default:
			fmt.Fprintf(&b, "\tld.global.b%d %s, [%%a1+%d];\n", w, r, 8*k)
		}
		srcs = append(srcs, r)
	}
	d := regName(c.dstW, 0, true)
	fmt.Fprintf(&b, "\t%s %s, %s;\n", c.inst, d, strings.Join(srcs, ", "))
	if c.dstW == 1 {
		fmt.Fprintf(&b, "\tselp.u32 %%t1, 1, 0, %s;\n\tst.global.u32 [%%a2], %%t1;\n", d)
	} else {
		fmt.Fprintf(&b, "\tst.global.b%d [%%a2], %s;\n", c.dstW, d)
	}
	b.WriteString("DONE:\n\tret;\n}\n")
	return b.String()
}

// run executes the instruction over all vectors and returns the results.
func (c opCase) run(t *testing.T, vecs [][]uint64) []uint64 {
	t.Helper()
	src := c.ptx()
	m, err := Parse(src)
	if err != nil {
		t.Fatalf("%s: %v\n%s", c.inst, err, src)
	}
	mem := NewMemory()
	p, err := m.Load(mem)
	if err != nil {
		t.Fatal(err)
	}
	n := len(vecs)
	inAddr, in := mem.Alloc(8 * len(c.srcW) * n)
	outAddr, out := mem.Alloc(8 * n)
	for i, v := range vecs {
		for k, x := range v[:len(c.srcW)] {
			binary.LittleEndian.PutUint64(in[8*(i*len(c.srcW)+k):], x)
		}
	}
	params, err := PackParams(m, "k", inAddr, outAddr, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(Config{Kernel: "k", Grid: [3]int{(n + 127) / 128}, Block: [3]int{128}, Params: params}); err != nil {
		t.Fatalf("%s: %v", c.inst, err)
	}
	res := make([]uint64, n)
	for i := range res {
		res[i] = binary.LittleEndian.Uint64(out[8*i:])
		if c.dstW < 64 && c.dstW > 1 {
			res[i] &= 1<<uint(c.dstW) - 1
		}
	}
	return res
}

// check runs c over vecs and compares with want(vec).
func (c opCase) check(t *testing.T, vecs [][]uint64, want func(v []uint64) uint64) {
	t.Helper()
	got := c.run(t, vecs)
	bad := 0
	for i, v := range vecs {
		w := want(v)
		if c.dstW > 1 && c.dstW < 64 {
			w &= 1<<uint(c.dstW) - 1
		}
		if got[i] != w {
			t.Errorf("%s %#x = %#x, want %#x", c.inst, v, got[i], w)
			if bad++; bad > 8 {
				t.FailNow()
			}
		}
	}
}

// edge values of each integer width, as register bits
func intEdges(w int) []uint64 {
	m := maskOf(w)
	min := uint64(1) << uint(w-1)
	vals := []uint64{0, 1, 2, 3, 7, m, m - 1, min, min - 1, min + 1, 0x55 & m, 0xdeadbeefcafebabe & m, 0x1234 & m, 100, 1000 & m, (m - 99) & m}
	return vals
}

func pairs(a, b []uint64) [][]uint64 {
	var out [][]uint64
	for _, x := range a {
		for _, y := range b {
			out = append(out, []uint64{x, y})
		}
	}
	return out
}

func triples(a, b, c []uint64) [][]uint64 {
	var out [][]uint64
	for _, x := range a {
		for _, y := range b {
			for _, z := range c {
				out = append(out, []uint64{x, y, z})
			}
		}
	}
	return out
}

// sext interprets register bits of width w as signed.
func sext(v uint64, w int) int64 { return int64(v<<uint(64-w)) >> uint(64-w) }

func f32b(f float32) uint64 { return uint64(math.Float32bits(f)) }
func f64b(f float64) uint64 { return math.Float64bits(f) }

// runScalar runs a one-thread kernel whose last parameter is an output
// buffer of outSize bytes; args are the other parameters.
func runScalar(t *testing.T, src, kernel string, outSize int, args ...any) []byte {
	t.Helper()
	out, err := tryScalar(src, kernel, outSize, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func tryScalar(src, kernel string, outSize int, stdout *strings.Builder, args ...any) ([]byte, error) {
	m, err := Parse(src)
	if err != nil {
		return nil, err
	}
	mem := NewMemory()
	p, err := m.Load(mem)
	if err != nil {
		return nil, err
	}
	addr, out := mem.Alloc(outSize)
	params, err := PackParams(m, kernel, append(args, addr)...)
	if err != nil {
		return nil, err
	}
	cfg := Config{Kernel: kernel, Params: params}
	if stdout != nil {
		cfg.Stdout = stdout
	}
	return out, p.Run(cfg)
}

func u32at(b []byte, off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }
func u64at(b []byte, off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }
