package compiler_test

import (
	"sync"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// TestConcurrentCompile compiles kernels from several goroutines at once
// (shared parse cache, stub packages and file set) and checks that the
// cache hands every caller of a key the same module.
func TestConcurrentCompile(t *testing.T) {
	names := []string{"slices/increment", "funcs/generic_int16", "arrays/add2d", "shared/reduce", "atomics/float", "printf/values", "packages/calls", "packages/generic_named"}
	var wg sync.WaitGroup
	mods := make([][]*compiler.Module, len(names))
	for i, n := range names {
		c, ok := corpus.Lookup(n)
		if !ok {
			t.Fatalf("no case %s", n)
		}
		mods[i] = make([]*compiler.Module, 3)
		for j := 0; j < 3; j++ {
			wg.Add(1)
			go func(i, j int) {
				defer wg.Done()
				m, err := compiler.CompileFunc(c.Kernel, compiler.Target{SM: 80})
				if err != nil {
					t.Errorf("%s: %v", n, err)
					return
				}
				mods[i][j] = m
				// An uncached compile of the same kernel, concurrently.
				k, err := frontend.LoadFunc(c.Kernel)
				if err != nil {
					t.Errorf("%s: %v", n, err)
					return
				}
				m2, err := compiler.Compile(k, compiler.Target{SM: 80})
				if err != nil || m2.PTX != m.PTX {
					t.Errorf("%s: uncached compile differs (%v)", n, err)
				}
			}(i, j)
		}
	}
	wg.Wait()
	for i := range mods {
		if mods[i][0] == nil || mods[i][0] != mods[i][1] || mods[i][1] != mods[i][2] {
			t.Errorf("%s: cache returned different modules", names[i])
		}
	}
}
