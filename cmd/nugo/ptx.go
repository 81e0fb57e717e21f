package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/ptxas"
)

func init() {
	commands["ptx"] = command{summary: "print a kernel's PTX (and with -sass its SASS and register report)", run: runPTX}
}

// runPTX implements `nugo ptx [-arch sm_90] [-sass] [-debug] [-fastmath]
// [-lineinfo] [-maxregs N] PKGDIR FUNC`.
func runPTX(args []string) error {
	fs := flag.NewFlagSet("ptx", flag.ContinueOnError)
	arch := fs.String("arch", "sm_75", "target GPU architecture (sm_75, sm_80, sm_90, ...)")
	sass := fs.Bool("sass", false, "assemble with ptxas and print the SASS (cuobjdump) and ptxas's register/spill report")
	debug := fs.Bool("debug", false, "compile with debug checks (bounds, division by zero)")
	fastMath := fs.Bool("fastmath", false, "allow FMA contraction and approximate float32 division and sqrt")
	lineInfo := fs.Bool("lineinfo", false, "write .file/.loc directives mapping the PTX to Go source lines (cuda.LineInfo); with -sass, ptxas keeps them (-lineinfo)")
	maxRegs := fs.Int("maxregs", 0, "cap the registers per thread, 16 to 255 (cuda.MaxRegisters; the entry's .maxnreg); 0 for no cap")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: nugo ptx [-arch sm_90] [-sass] [-debug] [-fastmath] [-lineinfo] [-maxregs N] PKGDIR FUNC\n\nFUNC names a kernel of the Go package in PKGDIR; a generic kernel takes its type arguments: 'add[float32]'.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return fmt.Errorf("want PKGDIR FUNC, got %d arguments", fs.NArg())
	}
	sm, err := parseArch(*arch)
	if err != nil {
		return err
	}
	if r := *maxRegs; r != 0 && (r < compiler.MinMaxRegisters || r > compiler.MaxMaxRegisters) {
		return fmt.Errorf("-maxregs %d: want %d to %d registers per thread, or 0 for no cap", r, compiler.MinMaxRegisters, compiler.MaxMaxRegisters)
	}
	k, err := frontend.LoadDir(fs.Arg(0), fs.Arg(1))
	if err != nil {
		return err
	}
	m, err := compiler.Compile(k, compiler.Target{SM: sm, Debug: *debug, FastMath: *fastMath, LineInfo: *lineInfo, MaxRegisters: *maxRegs})
	if err != nil {
		return err
	}
	if !*sass {
		_, err := fmt.Fprint(os.Stdout, m.PTX)
		return err
	}
	var flags []string
	if *lineInfo {
		flags = append(flags, "-lineinfo")
	}
	listing, report, err := ptxas.SASS(m.PTX, *arch, flags...)
	fmt.Fprint(os.Stdout, report)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(os.Stdout, listing)
	return err
}
