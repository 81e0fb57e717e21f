package compiler_test

import (
	"path/filepath"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// BenchmarkCompileExamples measures a kernel's whole first-launch compile
// in nugo: parse (warm parse cache), check, SSA and PTX generation.
func BenchmarkCompileExamples(b *testing.B) {
	kernels := []struct{ dir, name string }{
		{"increment", "increment"}, {"vectoradd", "add"}, {"add2d", "increment2D"},
		{"logs", "logs"}, {"movingavg", "movingAverage"}, {"primes", "factorSums"},
	}
	for _, k := range kernels {
		dir := filepath.Join("..", "..", "examples", k.dir)
		b.Run(k.dir, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				fk, err := frontend.LoadDir(dir, k.name)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := compiler.Compile(fk, compiler.Target{}); err != nil {
					b.Skipf("%s: %v", k.dir, err) // e.g. needs the device math library
				}
			}
		})
	}
}
