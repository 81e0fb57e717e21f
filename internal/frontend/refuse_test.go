package frontend

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// markerPos returns the line:col just after the first /*HERE*/ in src.
func markerPos(t *testing.T, src string) string {
	t.Helper()
	i := strings.Index(src, "/*HERE*/")
	if i < 0 {
		t.Fatalf("no /*HERE*/ marker in test source")
	}
	i += len("/*HERE*/")
	line := strings.Count(src[:i], "\n") + 1
	col := i - strings.LastIndex(src[:i], "\n")
	return fmt.Sprintf("k.go:%d:%d", line, col)
}

const header = "package k\n\nimport \"github.com/nugo-dev/nugo/cuda\"\n\n"

// TestRefusals checks each construct of the section 3: the error is
// at the offending code and says what to write instead.
func TestRefusals(t *testing.T) {
	cases := []struct {
		name, body, msg string
	}{
		{"func value", "func k(t cuda.Thread, a []float64) {\n\tf := func(x float64) float64 { return x }\n\tif a[0] > 0 {\n\t\t/*HERE*/f = func(x float64) float64 { return -x }\n\t}\n\ta[0] = f(a[1])\n}", "cannot use a function value in a kernel; call the function directly (a function literal"},
		{"copy from string", "func k(t cuda.Thread, a []byte) {\n\t/*HERE*/copy(a, \"abc\")\n}", "copy from a string is not supported in kernels"},
		{"map", "func k(t cuda.Thread, a []int) {\n\t/*HERE*/m := make(map[int]int)\n\ta[0] = m[1]\n}", "cannot use a map in a kernel; pass a slice"},
		{"map param", "func k(t cuda.Thread, /*HERE*/m map[int]int) {\n}", "kernel parameter m has type map[int]int"},
		{"by-value struct with a pointer", "type node struct{ N int; Next *node }\nfunc k(t cuda.Thread, /*HERE*/n node) {\n}", "kernel parameter n has type node, passed by value: field Next has type *node, which is a pointer"},
		{"by-value nested slice field", "type in struct{ S []int32 }\ntype out struct{ A [2]in }\nfunc k(t cuda.Thread, /*HERE*/o out) {\n}", "field A[i].S has type []int32, which is a slice"},
		{"by-value array of strings", "func k(t cuda.Thread, /*HERE*/a [2]string) {\n}", "the element has type string, which is a string"},
		{"by-value struct with a func", "type cb struct{ F func() }\nfunc k(t cuda.Thread, /*HERE*/c cb) {\n}", "field F has type func(), which is a func"},
		{"by-value struct with an interface", "type v struct{ X any }\nfunc k(t cuda.Thread, /*HERE*/c v) {\n}", "field X has type any, which is an interface"},
		{"by-value struct with a map", "type v struct{ M map[int]int }\nfunc k(t cuda.Thread, /*HERE*/c v) {\n}", "field M has type map[int]int, which is a map"},
		{"n-d table of a call", "var tb = [2][2]float64{{1, f()}}\n\nfunc f() float64 { return 1 }\n\nfunc k(t cuda.Thread, a []float64) {\n\ta[0] = /*HERE*/tb[0][1]\n}", "cannot use package-level variable tb in a kernel: the GPU does not see it; pass it as a parameter, or declare it as a constant (a variable initialized with constants, or with an array or struct literal of constants, n-d arrays and arrays of structs included"},
		{"table of structs with a string", "type rec struct{ N int; S string }\n\nvar tb = [1]rec{{1, \"a\"}}\n\nfunc k(t cuda.Thread, a []int) {\n\ta[0] = /*HERE*/tb[0].N\n}", "cannot use a string in a kernel"},
		{"slice of structs with a string", "type s struct{ N int; Name string }\nfunc k(t cuda.Thread, /*HERE*/a []s) {\n}", "kernel parameter a has type []s; kernels take numeric scalars, bool, cuda.Float16, slices of numbers, bools or structs of numbers"},
		{"channel", "func k(t cuda.Thread, a []int) {\n\tvar /*HERE*/c chan int\n\t_ = c\n}", "cannot use a channel in a kernel"},
		{"send", "func k(t cuda.Thread, a []int, c chan int) {\n\t/*HERE*/c <- 1\n}", "cannot send on a channel"},
		{"goroutine", "func k(t cuda.Thread, a []int) {\n\t/*HERE*/go func() {}()\n}", "cannot start a goroutine in a kernel"},
		{"select", "func k(t cuda.Thread, a []int) {\n\t/*HERE*/select {}\n}", "select is not supported in kernels"},
		{"defer", "func k(t cuda.Thread, a []int) {\n\t/*HERE*/defer f()\n}\nfunc f() {}", "defer is not supported in kernels"},
		{"closure", "func k(t cuda.Thread, a []int) {\n\tx := 1\n\tf := /*HERE*/func() int { return x }\n\ta[0] = f()\n}", "closures that capture variables (here x)"},
		{"interface", "func k(t cuda.Thread, a []int) {\n\tvar /*HERE*/v any = a[0]\n\t_ = v\n}", "cannot use an interface value in a kernel"},
		{"type switch", "func k(t cuda.Thread, a []int) {\n\tvar v any\n\t/*HERE*/switch v.(type) {\n\t}\n}", "type switches need interfaces"},
		{"string", "func k(t cuda.Thread, a []int) {\n\t/*HERE*/s := \"abc\"\n\ta[0] = len(s)\n}", "cannot use a string in a kernel"},
		{"append", "func k(t cuda.Thread, a []int) {\n\ta = /*HERE*/append(a, 1)\n}", "append may allocate on the heap"},
		{"make", "func k(t cuda.Thread, a []int, n int) {\n\tb := /*HERE*/make([]int, n)\n\ta[0] = b[0]\n}", "make with a size not known at compile time"},
		{"other package", "import \"strconv\"\n\nfunc k(t cuda.Thread, a []int) {\n\ta[0], _ = /*HERE*/strconv.Atoi(\"1\")\n}", "cannot use strconv.Atoi in a kernel"},
		{"fmt", "import \"fmt\"\n\nfunc k(t cuda.Thread, a []int) {\n\t/*HERE*/fmt.Println(a[0])\n}", "use cuda.Printf"},
		{"global write", "var counter int\n\nfunc k(t cuda.Thread, a []int) {\n\t/*HERE*/counter++\n}", "cannot write to package-level variable counter"},
		{"global read", "func two() float64 { return 2 }\n\nvar scale = two()\n\nfunc k(t cuda.Thread, a []float64) {\n\ta[0] = /*HERE*/scale\n}", "cannot use package-level variable scale"},
		{"pointer to slice", "func k(t cuda.Thread, /*HERE*/p *[]int) {\n}", "kernel parameter p has type *[]int"},
		{"first param", "func k/*HERE*/(a []int) {\n}", "first parameter of a kernel must be a cuda.Thread"},
		{"result", "func k(t cuda.Thread, a []int) /*HERE*/int {\n\treturn 0\n}", "a kernel returns nothing"},
		{"range over a string", "func k(t cuda.Thread, a []int) {\n\t/*HERE*/for i, r := range \"h\u00e9llo\" {\n\t\ta[i] = int(r)\n\t}\n}", "range over a string is not supported in kernels (strings are not); range over a []byte or []rune parameter"},
		{"panic of a variable", "func k(t cuda.Thread, a []int) {\n\t/*HERE*/panic(a[0])\n}", "panic in a kernel takes a constant string, number or bool, or errors.New"},
		{"panic of errors.New of a variable", "import \"errors\"\n\nfunc k(t cuda.Thread, a []byte) {\n\t/*HERE*/panic(errors.New(string(a)))\n}", "panic in a kernel takes a constant"},
		{"panic of a named type", "type code int\n\nfunc (c code) String() string { return \"c\" }\n\nfunc k(t cuda.Thread, a []int) {\n\t/*HERE*/panic(code(1))\n}", "panic in a kernel takes a constant"},
		{"method on interface", "type shape interface{ Area() float64 }\n\nfunc area(s /*HERE*/shape) float64 { return s.Area() }\n\nfunc k(t cuda.Thread, a []float64) {\n\ta[0] = area(nil)\n}", "cannot use an interface value"},
		{"complex atomic", "func k(t cuda.Thread, a []complex128) {\n\t/*HERE*/cuda.AtomicAdd(&a[0], 1i)\n}", "does not satisfy"},
		{"complex atomic advice", "func k(t cuda.Thread, a []complex64) {\n\t/*HERE*/cuda.AtomicSub(&a[0], 1i)\n}", "with cuda.AtomicAddComplex"},
		{"complex shuffle", "func k(t cuda.Thread, a []complex64) {\n\ta[0] = /*HERE*/cuda.ShflSync(t, a[0], 0)\n}", "does not satisfy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := c.body
			if !strings.HasPrefix(src, "import") {
				src = header + src
			} else {
				src = strings.Replace(header, "import \"github.com/nugo-dev/nugo/cuda\"", "import \"github.com/nugo-dev/nugo/cuda\"\n", 1) + src
			}
			want := markerPos(t, src)
			_, err := LoadSource("k.go", []byte(src), "k")
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *frontend.Error", err)
			}
			for _, d := range fe.Diags {
				if d.Pos.String() == want && strings.Contains(d.Msg, c.msg) {
					return
				}
			}
			t.Errorf("want %s: ...%s...; got:\n%v", want, c.msg, err)
		})
	}
}

// TestRecursiveClosures: a function literal that calls itself through a
// variable and captures nothing else loads (the compiler makes it a
// recursive device function); one that also captures another variable is
// refused with one diagnostic, at the literal, that names the variable and
// says what to write (issue 21, item 9): the variable's declaration,
// assignment and calls are not reported again.
func TestRecursiveClosures(t *testing.T) {
	tests := []struct {
		name, body, msg string // msg "" for a kernel that loads
	}{
		{"fib", "func k(t cuda.Thread, out []int64) {\n\tvar fib func(n int64) int64\n\tfib = /*HERE*/func(n int64) int64 {\n\t\tif n < 2 {\n\t\t\treturn n\n\t\t}\n\t\treturn fib(n-1) + fib(n-2)\n\t}\n\tout[t.Grid1()] = fib(int64(t.Grid1()))\n}\n", ""},
		{"called through parentheses", "func k(t cuda.Thread, out []int64) {\n\tvar f func(int) int\n\tf = /*HERE*/func(n int) int {\n\t\tif n == 0 {\n\t\t\treturn 0\n\t\t}\n\t\treturn (f)(n - 1)\n\t}\n\tout[0] = int64(f(3))\n}\n", ""},
		{"capturing a slice too", "func k(t cuda.Thread, out []int64) {\n\tvar walk func(i int)\n\twalk = /*HERE*/func(i int) {\n\t\tif i < len(out) {\n\t\t\tout[i] = 1\n\t\t\twalk(2*i + 1)\n\t\t}\n\t}\n\twalk(0)\n}\n",
			"a recursive closure may capture only its own variable (walk) in a kernel, but this one also captures out; pass out to it as an argument"},
		{"capturing a local too", "func k(t cuda.Thread, out []int64) {\n\tstep := int64(2)\n\tvar f func(n int64) int64\n\tf = /*HERE*/func(n int64) int64 {\n\t\tif n <= 0 {\n\t\t\treturn 0\n\t\t}\n\t\treturn 1 + f(n-step)\n\t}\n\tout[0] = f(9)\n}\n",
			"also captures step"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := header + tc.body
			want := markerPos(t, src)
			_, err := LoadSource("k.go", []byte(src), "k")
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("a recursive closure that captures only itself: %v", err)
				}
				return
			}
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *frontend.Error", err)
			}
			if len(fe.Diags) != 1 {
				t.Fatalf("%d diagnostics, want 1:\n%v", len(fe.Diags), err)
			}
			if d := fe.Diags[0]; d.Pos.String() != want || !strings.Contains(d.Msg, tc.msg) {
				t.Errorf("want %s: ...%s...; got %s: %s", want, tc.msg, d.Pos, d.Msg)
			}
		})
	}
}

// TestRangeOverStringOneDiagnostic: range over a string is one diagnostic
// that says what to write, without the compiler's view of its iterator
// (issue 21, item 16).
func TestRangeOverStringOneDiagnostic(t *testing.T) {
	src := header + "func k(t cuda.Thread, a []int) {\n\tfor i, r := range \"abc\" {\n\t\ta[i] = int(r)\n\t}\n}\n"
	_, err := LoadSource("k.go", []byte(src), "k")
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("got %v, want a *frontend.Error", err)
	}
	if len(fe.Diags) != 1 || strings.Contains(err.Error(), "internal compiler error") {
		t.Errorf("%d diagnostics, want 1:\n%v", len(fe.Diags), err)
	}
}
