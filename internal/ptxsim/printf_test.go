package ptxsim

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// pArg is one vprintf argument: kind i32, u32, i64, f64 or str.
type pArg struct {
	kind string
	v    any
}

// printfKernel builds a kernel that calls vprintf with format and args laid
// out as CUDA does: each argument aligned to its size in a local buffer.
func printfKernel(format string, args []pArg) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString(".extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n")
	strs := []string{format}
	for _, a := range args {
		if a.kind == "str" {
			strs = append(strs, a.v.(string))
		}
	}
	for i, s := range strs {
		bs := append([]byte(s), 0)
		var nums []string
		for _, c := range bs {
			nums = append(nums, fmt.Sprint(c))
		}
		fmt.Fprintf(&b, ".global .align 1 .b8 $str%d[%d] = {%s};\n", i, len(bs), strings.Join(nums, ", "))
	}
	b.WriteString(`.visible .entry k(.param .u64 out)
{
	.local .align 8 .b8 __local_depot0[256];
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .b32 %r<40>;
	.reg .b64 %rd<40>;
	.reg .f64 %fd<40>;
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
`)
	off, si := 0, 1
	for i, a := range args {
		size := 4
		if a.kind != "i32" && a.kind != "u32" {
			size = 8
		}
		off = (off + size - 1) / size * size
		switch a.kind {
		case "i32", "u32":
			fmt.Fprintf(&b, "\tmov.u32 %%r%d, %d;\n\tst.local.u32 [%%SPL+%d], %%r%d;\n", i, a.v, off, i)
		case "i64":
			fmt.Fprintf(&b, "\tmov.u64 %%rd%d, %d;\n\tst.local.u64 [%%SPL+%d], %%rd%d;\n", i, a.v, off, i)
		case "f64":
			fmt.Fprintf(&b, "\tmov.f64 %%fd%d, 0d%016X;\n\tst.local.f64 [%%SPL+%d], %%fd%d;\n", i, math.Float64bits(a.v.(float64)), off, i)
		case "str":
			fmt.Fprintf(&b, "\tmov.u64 %%rd%d, $str%d;\n\tcvta.global.u64 %%rd%d, %%rd%d;\n\tst.local.u64 [%%SPL+%d], %%rd%d;\n", i, si, i, i, off, i)
			si++
		}
		off += size
	}
	b.WriteString(`	mov.u64 %rd39, $str0;
	cvta.global.u64 %rd38, %rd39;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd38;
	.param .b64 param1;
	st.param.b64 [param1], %SP;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r39, [retval0];
	}
	ld.param.u64 %rd37, [out];
	st.global.u32 [%rd37], %r39;
	ret;
}
`)
	return b.String()
}

func TestVprintf(t *testing.T) {
	cases := []struct {
		format string
		args   []pArg
		want   string
	}{
		{"hello\n", nil, "hello\n"},
		{"%d|%5d|%-5d|%05d|%+d|% d", []pArg{{"i32", 42}, {"i32", 42}, {"i32", 42}, {"i32", 42}, {"i32", 42}, {"i32", 42}}, "42|   42|42   |00042|+42| 42"},
		{"%d %i %u %x %X %o", []pArg{{"i32", -1}, {"i32", -7}, {"i32", -1}, {"i32", -1}, {"i32", 255}, {"i32", 8}}, "-1 -7 4294967295 ffffffff FF 10"},
		{"%#x %#o %#x", []pArg{{"i32", 255}, {"i32", 8}, {"i32", 0}}, "0xff 010 0"},
		{"%lld %llu %llx %ld", []pArg{{"i64", int64(math.MinInt64)}, {"i64", -1}, {"i64", -2}, {"i64", 1 << 40}}, "-9223372036854775808 18446744073709551615 fffffffffffffffe 1099511627776"},
		// an int after a long long, then a long long: alignment padding
		{"%d %lld %d %lld", []pArg{{"i32", 1}, {"i64", 2}, {"i32", 3}, {"i64", 4}}, "1 2 3 4"},
		{"%f %.2f %10.3f %-10.1f| %e %.3E %g %g %g %G", []pArg{{"f64", 3.14159265}, {"f64", 2.005}, {"f64", -1.5}, {"f64", 0.25},
			{"f64", 12345.678}, {"f64", 0.000123}, {"f64", 100000.0}, {"f64", 1e6}, {"f64", 0.0001}, {"f64", 1e-5}},
			"3.141593 2.00     -1.500 0.2       | 1.234568e+04 1.230E-04 100000 1e+06 0.0001 1E-05"},
		{"%f %f %e %F %5.1f %+f", []pArg{{"f64", math.Inf(1)}, {"f64", math.Inf(-1)}, {"f64", math.NaN()}, {"f64", math.Inf(1)}, {"f64", math.NaN()}, {"f64", math.Inf(1)}},
			"inf -inf nan INF   nan +inf"},
		{"%g %g %.3g %#g", []pArg{{"f64", 0.5}, {"f64", 123456789.0}, {"f64", 3.14159}, {"f64", 1.0}}, "0.5 1.23457e+08 3.14 1.00000"},
		{"[%s] [%8s] [%-4s] [%.2s]", []pArg{{"str", "go"}, {"str", "nugo"}, {"str", "a"}, {"str", "xyz"}}, "[go] [    nugo] [a   ] [xy]"},
		{"%c%c%c %%d %5c", []pArg{{"i32", 'a'}, {"i32", 'b'}, {"i32", 'c'}, {"i32", 'z'}}, "abc %d     z"},
		{"%hd %hhu", []pArg{{"i32", 70000}, {"i32", 257}}, "4464 1"},
	}
	for _, c := range cases {
		src := printfKernel(c.format, c.args)
		var sb strings.Builder
		out, err := tryScalar(src, "k", 4, &sb)
		if err != nil {
			t.Fatalf("%q: %v", c.format, err)
		}
		if sb.String() != c.want {
			t.Errorf("printf(%q) printed %q, want %q", c.format, sb.String(), c.want)
		}
		if n := int(u32at(out, 0)); n != len(c.want) {
			t.Errorf("printf(%q) returned %d, want %d", c.format, n, len(c.want))
		}
	}
}

func TestVprintfBadPointer(t *testing.T) {
	src := printfKernel("%s", []pArg{{"str", "x"}})
	src = strings.Replace(src, "cvta.global.u64 %rd0, %rd0;", "mov.u64 %rd0, 99;", 1)
	_, err := tryScalar(src, "k", 4, nil)
	if err == nil || !strings.Contains(err.Error(), "0x63") {
		t.Fatalf("got %v, want a fault at address 0x63", err)
	}
}
