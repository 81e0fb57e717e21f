package frontend

import (
	"bytes"
	"fmt"
	"go/types"
	"reflect"
	"regexp"
	"runtime"
	"sync"
)

// Generated kernels. A package that builds a kernel at run time, because
// its signature depends on a user's function (vectorize's generalized
// ufuncs), makes its Go func value with reflect.MakeFunc, which has no
// source the front end could read. RegisterSource gives the source text
// to compile for such kernels: LoadFunc and InstanceName look it up by the
// func value's type when the value is made by reflect.MakeFunc.

// generated maps a kernel's func type to its registered source.
var generated sync.Map // reflect.Type -> generatedKernel

type generatedKernel struct {
	name string
	src  []byte
}

// makeFuncStub is the runtime name of every func value made by
// reflect.MakeFunc.
const makeFuncStub = "reflect.makeFuncStub"

// RegisterSource records src, the text of one Go file, as the source of
// kernel name for func values of type t made by reflect.MakeFunc. The
// source's function name must have type t once its package's types are
// spelled as Go prints them (its first parameter a cuda.Thread); LoadFunc
// checks that when it loads it. Registering the same source again is a
// no-op; a different source for a type already registered is an error,
// since a func value's type is all that LoadFunc sees of it.
func RegisterSource(t reflect.Type, name string, src []byte) error {
	if t == nil || t.Kind() != reflect.Func {
		return fmt.Errorf("generated kernel %s: type %v is not a func type", name, t)
	}
	g := generatedKernel{name: name, src: bytes.Clone(src)}
	prev, loaded := generated.LoadOrStore(t, g)
	if p := prev.(generatedKernel); loaded && (p.name != name || !bytes.Equal(p.src, src)) {
		return fmt.Errorf("generated kernel %s: type %s already has the source of kernel %s", name, t, p.name)
	}
	return nil
}

// generatedFor returns the source registered for fn, a func value made by
// reflect.MakeFunc; ok is false for any other value.
func generatedFor(fn any) (generatedKernel, bool, error) {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return generatedKernel{}, false, nil
	}
	rf := runtime.FuncForPC(v.Pointer())
	if rf == nil || rf.Name() != makeFuncStub {
		return generatedKernel{}, false, nil
	}
	g, ok := generated.Load(v.Type())
	if !ok {
		return generatedKernel{}, true, fmt.Errorf("kernel of type %s is made by reflect.MakeFunc and has no Go source to compile; the compiled backends need a function declared in Go source", v.Type())
	}
	return g.(generatedKernel), true, nil
}

// loadGenerated loads a registered kernel and checks that its type is
// the func value's.
func loadGenerated(g generatedKernel, t reflect.Type) (*Kernel, error) {
	k, err := LoadSource("nugo-generated-"+g.name+".go", g.src, g.name)
	if err != nil {
		return nil, err
	}
	if !sameSpelling(k, t) {
		return nil, fmt.Errorf("generated kernel %s has type %s, but its func value has type %s", g.name, k.Func.Signature, t)
	}
	return k, nil
}

// sameSpelling compares the kernel's SSA signature with a reflect func
// type parameter by parameter, as Go prints their types ("cuda.Thread",
// "[]float64", "func([]float64, int64)").
func sameSpelling(k *Kernel, t reflect.Type) bool {
	sig := k.Func.Signature
	if sig.Params().Len() != t.NumIn() || sig.Results().Len() != t.NumOut() {
		return false
	}
	for i := range t.NumIn() {
		if types.TypeString(sig.Params().At(i).Type(), byName) != pathPrefix.ReplaceAllString(t.In(i).String(), "") {
			return false
		}
	}
	return true
}

// pathPrefix matches the directories of a package path, which reflect
// writes before the package name of a type argument
// ("cuda.Array2[github.com/nugo-dev/nugo/cuda.Float16]"); no other part of
// a type's spelling has a slash.
var pathPrefix = regexp.MustCompile(`([\w.~-]+/)+`)

// byName qualifies a type by its package's name, as reflect prints it.
func byName(p *types.Package) string { return p.Name() }
