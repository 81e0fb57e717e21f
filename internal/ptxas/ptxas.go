package ptxas

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNotFound means ptxas is not on PATH.
var ErrNotFound = errors.New("ptxas not found on PATH (run scripts/install-ptxas.sh and put the directory it prints on PATH)")

// Path returns ptxas's path, or ErrNotFound.
func Path() (string, error) {
	p, err := exec.LookPath("ptxas")
	if err != nil {
		return "", ErrNotFound
	}
	return p, nil
}

// Available reports whether ptxas is on PATH.
func Available() bool {
	_, err := Path()
	return err == nil
}

// Version returns the first line of `ptxas --version` naming the release.
func Version() (string, error) {
	p, err := Path()
	if err != nil {
		return "", err
	}
	out, err := exec.Command(p, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("ptxas --version: %w", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "release") {
			return strings.TrimSpace(l), nil
		}
	}
	return strings.TrimSpace(string(out)), nil
}

// Error is a rejection by ptxas: its log names the PTX lines at fault.
type Error struct {
	Arch string
	Log  string
}

// Error includes ptxas's whole log.
func (e *Error) Error() string {
	return fmt.Sprintf("ptxas -arch=%s rejected the module:\n%s", e.Arch, e.Log)
}

// Assemble assembles ptx for arch (e.g. "sm_75") and discards the output.
// With verbose, ptxas's register and spill report is in the returned log.
// flags are further ptxas options, such as -lineinfo.
func Assemble(ptx, arch string, verbose bool, flags ...string) (string, error) {
	_, log, err := run(ptx, arch, verbose, false, flags)
	return log, err
}

// Cubin assembles ptx for arch and returns the cubin bytes and ptxas's log.
// flags are further ptxas options, such as -lineinfo.
func Cubin(ptx, arch string, verbose bool, flags ...string) ([]byte, string, error) {
	return run(ptx, arch, verbose, true, flags)
}

func run(ptx, arch string, verbose, keep bool, flags []string) ([]byte, string, error) {
	p, err := Path()
	if err != nil {
		return nil, "", err
	}
	dir, err := os.MkdirTemp("", "nugo-ptxas-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "kernel.ptx")
	if err := os.WriteFile(in, []byte(ptx), 0o644); err != nil {
		return nil, "", err
	}
	out := os.DevNull
	if keep {
		out = filepath.Join(dir, "kernel.cubin")
	}
	args := []string{"-arch=" + arch, "-o", out}
	if verbose {
		args = append(args, "-v")
	}
	args = append(args, flags...)
	args = append(args, in)
	var buf bytes.Buffer
	cmd := exec.Command(p, args...)
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); ok {
			return nil, buf.String(), &Error{Arch: arch, Log: buf.String()}
		}
		return nil, buf.String(), fmt.Errorf("run ptxas: %w", err)
	}
	if !keep {
		return nil, buf.String(), nil
	}
	cubin, err := os.ReadFile(out)
	return cubin, buf.String(), err
}

// SASS disassembles ptx for arch with cuobjdump -sass and returns the
// listing and ptxas's register report; flags are further ptxas options.
func SASS(ptx, arch string, flags ...string) (sass, report string, err error) {
	cubin, report, err := Cubin(ptx, arch, true, flags...)
	if err != nil {
		return "", report, err
	}
	obj, err := exec.LookPath("cuobjdump")
	if err != nil {
		return "", report, errors.New("cuobjdump not found on PATH (it ships next to ptxas)")
	}
	dir, err := os.MkdirTemp("", "nugo-sass-")
	if err != nil {
		return "", report, err
	}
	defer os.RemoveAll(dir)
	f := filepath.Join(dir, "kernel.cubin")
	if err := os.WriteFile(f, cubin, 0o644); err != nil {
		return "", report, err
	}
	out, err := exec.Command(obj, "-sass", f).CombinedOutput()
	if err != nil {
		return string(out), report, fmt.Errorf("cuobjdump -sass: %w", err)
	}
	return string(out), report, nil
}
