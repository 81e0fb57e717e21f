package cuda

import (
	"io/fs"

	"github.com/nugo-dev/nugo/internal/frontend"
)

// Source is the Go source a binary carries for the compiled backends (gpu
// and ptxsim), which compile kernels from Go source at run time. nugo gen
// writes a file, nugo_source.go, into each package with kernels (or with
// functions it passes to vectorize or to kernels' func parameters) that
// registers the package's source with RegisterSource from an init
// function, so that the binary runs its kernels on any machine, with no
// source tree and no Go toolchain. Programs do not write a Source by hand.
type Source struct {
	// Anchor is a function declared in the generated file: the runtime's
	// record of it names the package and the directory the binary records
	// for its files (so that a kernel's errors name the same file:line on
	// every backend, with -trimpath or without).
	Anchor func()
	// Files holds the package's Go files (an embed.FS of them): the text
	// the binary was built from, so it cannot be stale.
	Files fs.FS
	// Copied are files of other packages that the package's kernels call,
	// copied when nugo gen ran; the binary checks them against itself
	// when a kernel first needs them.
	Copied []CopiedSource
}

// CopiedSource is files of another package that nugo gen copied into a
// generated file.
type CopiedSource struct {
	Package string            // import path
	Module  string            // the package's module
	Version string            // the module's version when copied; "" for the main module or a local replacement
	Files   map[string]string // file name → Go text
	Funcs   []CopiedFunc      // functions of the files, to find in the binary where the copy has them
}

// CopiedFunc locates a function of copied source: if the binary has it at
// another line or in another file, the copy is older than the binary's
// source and the kernels that need it fail to compile with a
// *CompileError that says to run go generate.
type CopiedFunc struct {
	Func     any    // the function as a value: q.F, (*q.T).M
	File     string // base name of its file
	Line     int    // line of its declaration
	BodyLine int    // line of its body's first statement
}

// RegisterSource registers a package's source for the compiled backends;
// the nugo_source.go files that nugo gen writes call it from an init
// function. It records references only: nothing is read or parsed until a
// kernel of the package (or one calling into it) is first compiled, and a
// problem with the registered source is reported by that compile.
func RegisterSource(s Source) {
	if s.Anchor != nil && s.Files != nil {
		frontend.RegisterEmbedded(s.Anchor, s.Files)
	}
	for _, c := range s.Copied {
		funcs := make([]frontend.FuncCheck, len(c.Funcs))
		for i, f := range c.Funcs {
			funcs[i] = frontend.FuncCheck{Func: f.Func, File: f.File, Line: f.Line, BodyLine: f.BodyLine}
		}
		frontend.RegisterCopied(s.Anchor, c.Package, c.Module, c.Version, c.Files, funcs)
	}
}
