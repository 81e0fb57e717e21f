package ptxsim

import (
	"errors"
	"testing"
)

// TestFaultSourceFromLoc: a fault names the source position of the last
// .loc before the faulting instruction, in the function that faults (a
// device function's own .loc, not its caller's); PTX without .loc, or with
// a .loc of an undeclared file, gives no position. .file may carry a
// timestamp and size, .loc inlining information, as PTX allows.
func TestFaultSourceFromLoc(t *testing.T) {
	const files = `.file 1 "/src/kern.go"
.file 2 "dev\\math.go", 1700000000, 1234
`
	cases := []struct {
		name, files, entry, fn, want string
	}{
		{"entry", files, ".loc 1 10 5\n\tmov.u64 %rd1, 0;\n\t.loc 1 12 7\n\tld.global.u32 %r1, [%rd1];", "", "/src/kern.go:12:7"},
		{"no column", files, ".loc 1 10 0\n\tmov.u64 %rd1, 0;\n\tld.global.u32 %r1, [%rd1];", "", "/src/kern.go:10"},
		{"inlined_at", files, ".loc 1 10 5, function_name $Lfn, inlined_at 1 3 4\n\tmov.u64 %rd1, 0;\n\tld.global.u32 %r1, [%rd1];", "", "/src/kern.go:10:5"},
		{"device function", files, ".loc 1 20 3\n\tcall.uni f, ();", ".loc 2 7 9\n\tmov.u64 %rd1, 0;\n\tld.global.u32 %r1, [%rd1];", `dev\math.go:7:9`},
		{"before any loc", files, "mov.u64 %rd1, 0;\n\tld.global.u32 %r1, [%rd1];\n\t.loc 1 30 1", "", ""},
		{"no files", "", ".loc 1 10 5\n\tmov.u64 %rd1, 0;\n\tld.global.u32 %r1, [%rd1];", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fn := "\tret;"
			if c.fn != "" {
				fn = "\t" + c.fn
			}
			src := header + c.files + `
.func f()
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
` + fn + `
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	` + c.entry + `
	ret;
}`
			_, err := tryScalar(src, "k", 8, nil)
			var ee *ExecError
			if !errors.As(err, &ee) {
				t.Fatalf("got %v, want an *ExecError", err)
			}
			if ee.Source != c.want {
				t.Errorf("Source = %q, want %q (error: %v)", ee.Source, c.want, err)
			}
			if c.want != "" && err.Error()[len(err.Error())-len(c.want)-4:] != " at "+c.want {
				t.Errorf("error %q does not end with the position", err)
			}
		})
	}
}
