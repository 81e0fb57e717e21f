package cuda

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// MaxCallDepth is the deepest nesting of device-function calls a kernel's
// thread may reach on every backend: ptxsim counts the calls of the
// compiled code, the cpu backend those of the depth-counting copies that
// nugo gen writes for kernels that reach a recursive function (before go
// generate, such a kernel runs on ptxsim instead). A thread
// that goes deeper fails the launch with a *KernelError whose message is
// ErrCallDepth's, instead of overflowing its stack (on the cpu backend, a
// Go stack overflow ends the process). See docs/limits.md.
const MaxCallDepth = 4096

// ErrCallDepth is the panic value of a thread whose calls nest deeper
// than MaxCallDepth on the cpu backend; the launch's *KernelError carries
// its text, the same as ptxsim's.
var ErrCallDepth = errors.New("call depth exceeds 4096")

// callDepthBound maps a kernel's code pointer to its depth-counting copy.
var callDepthBound sync.Map // uintptr -> reflect.Value

// RegisterCallDepthBound registers bounded, a copy of kernel that counts
// the depth of its recursive calls and panics with ErrCallDepth beyond
// MaxCallDepth, as the function the cpu backend runs for kernel. It is
// called from the init functions that `nugo gen` writes for kernels that
// reach a recursive function of their package; both must be top-level
// functions of the same type, or the call is ignored.
func RegisterCallDepthBound(kernel, bounded any) {
	k, b := reflect.ValueOf(kernel), reflect.ValueOf(bounded)
	if kernel == nil || bounded == nil || k.Kind() != reflect.Func || k.IsNil() || b.Kind() != reflect.Func || b.IsNil() || k.Type() != b.Type() {
		return
	}
	callDepthBound.Store(k.Pointer(), b)
}

// boundedKernel returns the depth-counting copy registered for fn, if any.
func boundedKernel(fn reflect.Value) (reflect.Value, bool) {
	v, ok := callDepthBound.Load(fn.Pointer())
	if !ok {
		return reflect.Value{}, false
	}
	b := v.(reflect.Value)
	return b, b.Type() == fn.Type()
}

// recursionChecked caches checkRecursion's verdict per kernel code pointer.
var recursionChecked sync.Map // uintptr -> error (nil: none found)

// checkRecursion finds, for the cpu backend, whether a kernel without a
// depth-counting copy reaches a recursive function of its package (an
// error saying so): run as plain Go, a recursion that does not end would
// overflow the goroutine's stack, which Go cannot recover from, so such a
// kernel runs on ptxsim (runRecursiveOnPTXSim). The kernel's package
// source is parsed (not type-checked) once; calls are matched by name to
// the package's functions, local names that hide them excluded. Kernels
// whose source cannot be found (func literals, binaries without their
// source tree) are not checked.
func checkRecursion(fn reflect.Value) error {
	pc := fn.Pointer()
	if v, ok := recursionChecked.Load(pc); ok {
		err, _ := v.(error)
		return err
	}
	err := findRecursion(pc)
	recursionChecked.Store(pc, err)
	return err
}

func findRecursion(pc uintptr) error {
	f := runtime.FuncForPC(pc)
	if f == nil {
		return nil
	}
	file, _ := f.FileLine(f.Entry())
	full := f.Name()
	name := full[strings.LastIndexByte(full, '.')+1:]
	if strings.HasPrefix(name, "func") || strings.ContainsAny(name, "[]") || file == "" {
		return nil // a func literal or an instantiation: not checked
	}
	fset := token.NewFileSet()
	kf, err := parser.ParseFile(fset, file, nil, parser.PackageClauseOnly)
	if err != nil {
		return nil
	}
	dir := filepath.Dir(file)
	calls, ok := packageCalls(dir, kf.Name.Name)
	if !ok {
		return nil
	}
	if _, ok := calls[name]; !ok {
		return nil
	}
	// The first function, in breadth-first order from the kernel, that
	// reaches itself.
	seen := map[string]bool{name: true}
	queue := []string{name}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, c := range calls[n] {
			if reaches(calls, c, n) {
				return fmt.Errorf("%s reaches the recursive function %s (%s); on the cpu backend recursion is bounded (cuda.MaxCallDepth = %d) only by the copies nugo gen writes: run go generate (nugo gen) in %s",
					name, n, strings.Join(cycleOf(calls, n), " → "), MaxCallDepth, dir)
			}
			if !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	return nil
}

// callGraphs caches packageCalls per directory and package name.
var callGraphs sync.Map // string -> map[string][]string

// packageCalls returns the calls between the package-level functions of
// package pkg in dir, by name: each function (every one is a key) to
// those it calls directly. False if the directory cannot be read.
func packageCalls(dir, pkg string) (map[string][]string, bool) {
	key := dir + "\x00" + pkg
	if v, ok := callGraphs.Load(key); ok {
		return v.(map[string][]string), true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	fset := token.NewFileSet()
	decls := map[string]*ast.FuncDecl{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		af, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution|parser.PackageClauseOnly)
		if err != nil || af.Name.Name != pkg {
			continue
		}
		if af, err = parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0); err != nil {
			continue
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				decls[fd.Name.Name] = fd
			}
		}
	}
	calls := map[string][]string{}
	for n, fd := range decls {
		calls[n] = nil
		seen := map[string]bool{}
		ast.Inspect(fd.Body, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			fun := call.Fun
			if ix, ok := fun.(*ast.IndexExpr); ok { // an explicit instantiation
				fun = ix.X
			} else if ix, ok := fun.(*ast.IndexListExpr); ok {
				fun = ix.X
			}
			for {
				p, ok := fun.(*ast.ParenExpr)
				if !ok {
					break
				}
				fun = p.X
			}
			id, ok := fun.(*ast.Ident)
			// A local name (parameter, variable) has an object of its
			// own kind; a package function is unresolved or ast.Fun.
			if !ok || decls[id.Name] == nil || id.Obj != nil && id.Obj.Kind != ast.Fun || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			calls[n] = append(calls[n], id.Name)
			return true
		})
	}
	callGraphs.Store(key, calls)
	return calls, true
}

// reaches reports whether from reaches to through calls.
func reaches(calls map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	stack := []string{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == to {
			return true
		}
		if !seen[n] {
			seen[n] = true
			stack = append(stack, calls[n]...)
		}
	}
	return false
}

// cycleOf returns a cycle of calls through f, f first and last, or just f
// when f only reaches a cycle.
func cycleOf(calls map[string][]string, f string) []string {
	// breadth-first from f back to f
	parent := map[string]string{}
	queue := []string{f}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, c := range calls[n] {
			if c == f {
				path := []string{f}
				for m := n; m != f; m = parent[m] {
					path = append(path, m)
				}
				path = append(path, f)
				slices.Reverse(path[1 : len(path)-1])
				return path
			}
			if _, ok := parent[c]; !ok && c != f {
				parent[c] = n
				queue = append(queue, c)
			}
		}
	}
	return []string{f}
}
