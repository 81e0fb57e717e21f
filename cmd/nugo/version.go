package main

import (
	"flag"
	"fmt"

	"github.com/nugo-dev/nugo/internal/version"
)

func init() {
	commands["version"] = command{summary: "print nugo's version and the revision it was built from", run: runVersion}
}

// runVersion implements `nugo version`.
func runVersion(args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: nugo version\n\nPrints the nugo module version, the version control revision the binary\nwas built from (when built from a checkout), the Go version and the platform.")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("version takes no arguments, got %q", fs.Args())
	}
	fmt.Println(version.Get())
	return nil
}
