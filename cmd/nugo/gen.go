package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nugo-dev/nugo/internal/genfile"
	"github.com/nugo-dev/nugo/internal/loopgen"
	"github.com/nugo-dev/nugo/internal/srcgen"
)

func init() {
	commands["gen"] = command{summary: "write the CPU loops of a package's kernels and vectorized functions (for go generate)", run: runGen}
}

// runGen implements `nugo gen [-check] [-v] [DIR ...]`.
func runGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	check := fs.Bool("check", false, "write nothing; fail if a generated file is missing or out of date")
	verbose := fs.Bool("v", false, "list what gets a loop and what source the binary carries, and what is left out, with the reason")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: nugo gen [-check] [-v] [DIR ...]

Writes two files in each package directory (default: the current one, as
go generate runs it):

%s registers, for every kernel, a loop that the CPU backend runs a
block's threads with, and for every named function passed to
vectorize.New1..New4 (or instantiation of a generic one, as add[float32]),
a loop over elements (and for a function of one number type passed to
vectorize.New2, a fold and a scan, which Reduce and Accumulate use); each
calls the function directly, so that the Go compiler inlines it. Without
the file the CPU backend calls the function through a func value each time.

%s makes the binary carry the Go source that the gpu and ptxsim
backends compile the package's kernels from: it embeds the package's Go
files and copies the files of other packages its kernels call, so that
the binary runs its kernels on any machine, with no source tree and no Go
toolchain. Without it, kernels are compiled from the source on disk.

Put this line in one file of the package and run go generate:

	//go:generate go tool nugo gen

(after "go get -tool github.com/nugo-dev/nugo/cmd/nugo"; see the README).

`, loopgen.FileName, srcgen.FileName)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	dirs := fs.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	var stale []string
	for _, dir := range dirs {
		res, err := loopgen.Generate(dir)
		if err != nil {
			return err
		}
		src, err := srcgen.Generate(dir)
		if err != nil {
			return err
		}
		if *verbose {
			report(os.Stderr, res)
			reportSource(os.Stderr, src)
		}
		if *check {
			if ok, err := upToDate(res); err != nil {
				return err
			} else if !ok {
				stale = append(stale, filepath.Join(dir, loopgen.FileName))
			}
			if ok, err := srcgen.UpToDate(src); err != nil {
				return err
			} else if !ok {
				stale = append(stale, filepath.Join(dir, srcgen.FileName))
			}
			continue
		}
		if _, err := loopgen.Write(res); err != nil {
			return err
		}
		if _, err := srcgen.Write(src); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("out of date: %s; run go generate (or nugo gen) there", strings.Join(stale, ", "))
	}
	return nil
}

// reportSource writes what -v prints of the carried source.
func reportSource(w io.Writer, res *srcgen.Result) {
	if res.Source == nil {
		fmt.Fprintf(w, "%s: no kernels and no functions passed to cuda or vectorize; no %s\n", res.Package, srcgen.FileName)
		return
	}
	fmt.Fprintf(w, "%s: the binary carries the source of %s\n", res.Package, count(len(res.Roots), "kernel or function", "kernels and functions"))
	fmt.Fprintf(w, "\tembedded %s\n", strings.Join(res.Embedded, " "))
	for _, c := range res.Copied {
		fmt.Fprintf(w, "\tcopied %s: %s (%s checked against the binary)\n", c.Path, strings.Join(c.Files, " "), count(c.Checks, "function", "functions"))
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "\tnot carried: %s: %s\n", s.Name, s.Reason)
	}
}

// upToDate reports whether the file in res's directory is what Generate
// made (absent when nothing is generated).
func upToDate(res *loopgen.Result) (bool, error) {
	return genfile.UpToDate(res.Dir, loopgen.FileName, res.Source)
}

// report writes what -v prints: what got a loop, and why the rest did not.
func report(w io.Writer, res *loopgen.Result) {
	fmt.Fprintf(w, "%s: %s, %s, %s\n", res.Package, count(len(res.Kernels), "kernel", "kernels"),
		count(len(res.Ufuncs), "vectorized function", "vectorized functions"), count(len(res.Folds), "fold", "folds"))
	for _, k := range res.Kernels {
		if slices.Contains(res.Fissioned, k) {
			fmt.Fprintf(w, "\tkernel %s (block loop: barriers split into loops over the block's threads)\n", k)
			continue
		}
		if slices.Contains(res.Bounded, k) {
			fmt.Fprintf(w, "\tkernel %s (recursive: depth-counting copies, at most cuda.MaxCallDepth nested calls)\n", k)
			continue
		}
		fmt.Fprintf(w, "\tkernel %s\n", k)
	}
	for _, s := range res.Unfissioned {
		fmt.Fprintf(w, "\tkernel %s keeps goroutines at its barriers: %s\n", s.Name, s.Reason)
	}
	for _, u := range res.Ufuncs {
		fmt.Fprintf(w, "\tvectorized %s\n", u)
	}
	for _, f := range res.Folds {
		fmt.Fprintf(w, "\tfold and scan %s (Reduce, Accumulate)\n", f)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "\tskipped %s: %s\n", s.Name, s.Reason)
	}
}

// count writes n with the noun in the number it takes: "1 fold", "2 folds".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
