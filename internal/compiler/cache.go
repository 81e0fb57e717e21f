package compiler

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"

	"github.com/nugo-dev/nugo/internal/frontend"
)

// cacheKey identifies a compiled module: the kernel's code (its entry PC,
// which differs per generic instantiation shape), its exact type (which
// tells instantiations of the same shape apart) and the target.
type cacheKey struct {
	pc     uintptr
	typ    reflect.Type
	target Target
}

type cacheEntry struct {
	once sync.Once
	mod  *Module
	err  error
}

// cache holds every module compiled by CompileFunc in this process. It is
// the package's only global mutable state; entries are never evicted (a
// program has a bounded number of kernels and instantiations).
var cache = struct {
	sync.Mutex
	m map[cacheKey]*cacheEntry
}{m: map[cacheKey]*cacheEntry{}}

// CompileFunc compiles the kernel whose func value is fn for target, once per
// kernel, type instantiation and target; concurrent callers of the same key
// wait for one compilation. Compile errors are a *frontend.Error.
func CompileFunc(fn any, target Target) (*Module, error) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return nil, fmt.Errorf("kernel must be a non-nil func, got %T", fn)
	}
	if target.SM == 0 {
		target.SM = 75
	}
	key := cacheKey{pc: v.Pointer(), typ: v.Type(), target: target}
	if rf := runtime.FuncForPC(key.pc); rf != nil {
		key.pc = rf.Entry()
	}
	cache.Lock()
	e := cache.m[key]
	if e == nil {
		e = &cacheEntry{}
		cache.m[key] = e
	}
	cache.Unlock()
	e.once.Do(func() {
		k, err := frontend.LoadFunc(fn)
		if err != nil {
			e.err = err
			return
		}
		e.mod, e.err = Compile(k, target)
	})
	return e.mod, e.err
}
