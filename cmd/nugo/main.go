// Command nugo runs nugo's jobs and tools: the prime-factorization capstone
// (primes), a report of backends and devices (info), the compiler's tools
// where they are built in (ptx), the benchmark workloads (bench), a GPU
// monitor over NVML (top), the CPU loop generator (gen) and a check that
// a package's kernels compile for the GPU (vet).
//
// Usage:
//
//	nugo primes -n N [-backend auto|cpu|gpu|ptxsim] [-block 256] [-out FILE]
//	nugo info
//	nugo ptx [-arch sm_90] [-sass] [-debug] [-fastmath] PKGDIR FUNC
//	nugo bench [-backend auto|cpu|gpu|ptxsim] [-workload LIST] [-n N] [-reps 20] [-width 101] [-json]
//	nugo top [-interval 1s] [-n COUNT]
//	nugo gen [-check] [-v] [DIR ...]
//	nugo vet [-arch sm_75] [-debug] [-ptxas] [-v] [DIR ...]
//
// `nugo COMMAND -h` describes a command's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
)

// command is one subcommand of nugo.
type command struct {
	summary string
	run     func(args []string) error
}

// commands maps subcommand names to their implementations; files of this
// package add themselves in init functions.
var commands = map[string]command{}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "help" || os.Args[1] == "--help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	cmd, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "nugo: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err := cmd.run(os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintf(os.Stderr, "nugo %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: nugo COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\n'nugo COMMAND -h' describes a command's flags.")
}
