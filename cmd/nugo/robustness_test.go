package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIBadArguments feeds every subcommand bad flags and arguments: each
// must fail with an error that names the problem, before doing any work.
func TestCLIBadArguments(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		run  func([]string) error
		args []string
		want string
	}{
		{"primes n 1", runPrimes, []string{"-n", "1"}, "at least 2"},
		{"primes n negative", runPrimes, []string{"-n", "-5"}, "at least 2"},
		{"primes n not a number", runPrimes, []string{"-n", "ten"}, "invalid value"},
		{"primes n overflow", runPrimes, []string{"-n", "99999999999999999999"}, "invalid value"},
		{"primes block 0", runPrimes, []string{"-n", "10", "-block", "0"}, "-block 0"},
		{"primes block negative", runPrimes, []string{"-n", "10", "-block", "-3"}, "-block -3"},
		{"primes block 1025", runPrimes, []string{"-n", "10", "-block", "1025"}, "-block 1025"},
		{"primes chunk 0", runPrimes, []string{"-n", "10", "-chunk", "0"}, "-chunk 0"},
		{"primes backend", runPrimes, []string{"-backend", "tpu"}, "unknown backend"},
		{"primes extra", runPrimes, []string{"-n", "10", "extra"}, "unexpected arguments"},
		{"primes flag", runPrimes, []string{"-bogus"}, "-bogus"},
		{"primes out full", runPrimes, []string{"-n", "1000", "-backend", "cpu", "-out", "/dev/full"}, "no space left"},
		{"primes out dir", runPrimes, []string{"-n", "10", "-out", filepath.Join(dir, "missing", "f")}, "no such file"},
		{"info extra", runInfo, []string{"extra"}, "unexpected arguments"},
		{"info flag", runInfo, []string{"-x"}, "-x"},
		{"bench workload", runBench, []string{"-workload", "vecadd,matmul"}, `unknown workload "matmul"`},
		{"bench workload twice", runBench, []string{"-workload", "d2d,d2d"}, "listed twice"},
		{"bench workload empty", runBench, []string{"-workload", ","}, `unknown workload ""`},
		{"bench n negative", runBench, []string{"-n", "-1"}, "-n -1"},
		{"bench n 1 primes", runBench, []string{"-n", "1"}, "-n 1: at least 2"},
		{"bench n word", runBench, []string{"-n", "many"}, "invalid value"},
		{"bench reps 0", runBench, []string{"-reps", "0"}, "-reps 0"},
		{"bench width 0", runBench, []string{"-width", "0"}, "-width 0"},
		{"bench backend", runBench, []string{"-backend", "tpu"}, "unknown backend"},
		{"bench extra", runBench, []string{"vecadd"}, "unexpected arguments"},
		{"bench flag", runBench, []string{"-bogus"}, "-bogus"},
		{"top interval 0", runTop, []string{"-interval", "0s"}, "-interval 0s: at least 10ms"},
		{"top interval tiny", runTop, []string{"-interval", "1ms"}, "at least 10ms"},
		{"top interval number", runTop, []string{"-interval", "5"}, "invalid value"},
		{"top n negative", runTop, []string{"-n", "-2"}, "-n -2"},
		{"top extra", runTop, []string{"gpu0"}, "unexpected arguments"},
		{"top flag", runTop, []string{"-bogus"}, "-bogus"},
		{"ptx no args", runPTX, nil, "want PKGDIR FUNC"},
		{"ptx one arg", runPTX, []string{"."}, "want PKGDIR FUNC"},
		{"ptx arch word", runPTX, []string{"-arch", "ampere", ".", "K"}, "want sm_XX"},
		{"ptx arch suffix", runPTX, []string{"-arch", "sm_75x", ".", "K"}, "want sm_XX"},
		{"ptx arch empty", runPTX, []string{"-arch", "sm_", ".", "K"}, "want sm_XX"},
		{"ptx arch sign", runPTX, []string{"-arch", "sm_+80", ".", "K"}, "want sm_XX"},
		{"ptx arch old", runPTX, []string{"-arch", "sm_35", ".", "K"}, "sm_50 and later"},
		{"ptx arch negative", runPTX, []string{"-arch", "sm_-75", ".", "K"}, "want sm_XX"},
		{"ptx missing dir", runPTX, []string{filepath.Join(dir, "none"), "K"}, "none"},
		{"ptx missing func", runPTX, []string{"../../cuda/internal/testkernels", "NoSuchKernel"}, "NoSuchKernel"},
	} {
		if len(c.args) > 0 && c.args[len(c.args)-1] == "/dev/full" {
			if _, err := os.Stat("/dev/full"); err != nil {
				continue // not Linux: no device that fails every write
			}
		}
		t.Run(c.name, func(t *testing.T) {
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("nugo %q panicked: %v", c.args, r)
					}
				}()
				err = c.run(c.args)
			}()
			if err == nil {
				t.Fatalf("nugo %q succeeded", c.args)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("nugo %q: error %q does not mention %q", c.args, err, c.want)
			}
		})
	}
	if err := runPrimes([]string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("primes -h = %v, want flag.ErrHelp", err)
	}
}

// TestCLIPrimesFailedWriteNamesNoResults: when the -out file cannot be
// written, the run fails before its summary, which would name the file as
// holding the results (issue 21, item 16).
func TestCLIPrimesFailedWriteNamesNoResults(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("SKIP: no /dev/full on this system")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()
	runErr := runPrimes([]string{"-n", "1000", "-backend", "cpu", "-out", "/dev/full"})
	os.Stdout = old
	w.Close()
	printed := <-out
	if runErr == nil || !strings.Contains(runErr.Error(), "no space left") {
		t.Fatalf("nugo primes -out /dev/full: %v", runErr)
	}
	if strings.Contains(printed, "results") || strings.Contains(printed, "checksum") {
		t.Errorf("a failed write still printed the summary:\n%s", printed)
	}
}

// A run that fails after -out created its file leaves no file behind.
func TestCLIPrimesFailureRemovesOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.bin")
	if err := runPrimes([]string{"-n", "1", "-backend", "cpu", "-out", out}); err == nil {
		t.Fatal("nugo primes -n 1 succeeded")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("the failed run left %s behind (stat: %v)", out, err)
	}
}

// TestCLIExitCodes runs the command itself: an unknown command and no
// command exit 2 with the usage, a failing command exits 1 with its error,
// help exits 0.
func TestCLIExitCodes(t *testing.T) {
	if args := os.Getenv("NUGO_CLI_ARGS"); args != "" {
		os.Args = append([]string{"nugo"}, strings.Fields(args)...)
		if args == "-" {
			os.Args = os.Args[:1]
		}
		main()
		os.Exit(0)
	}
	for _, c := range []struct {
		args   string
		code   int
		stderr string
	}{
		{"-", 2, "usage: nugo COMMAND"},
		{"frobnicate", 2, `unknown command "frobnicate"`},
		{"help", 0, "usage: nugo COMMAND"},
		{"primes -n 1", 1, "nugo primes: -n 1: N must be at least 2"},
		{"primes -h", 0, "-block int"},
		{"info extra", 1, "unexpected arguments"},
		{"bench -workload nope", 1, `nugo bench: -workload: unknown workload "nope"`},
		{"bench -h", 0, "Workloads: primes"},
		{"top -n 1", 1, "nugo top: cannot monitor GPUs: cannot load /nonexistent/libnvidia-ml.so.1"},
		{"top -h", 0, "-interval duration"},
	} {
		t.Run(c.args, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCLIExitCodes$")
			cmd.Env = append(os.Environ(), "NUGO_CLI_ARGS="+c.args, "NUGO_BACKEND=cpu", "NUGO_LIBNVML=/nonexistent/libnvidia-ml.so.1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code || !strings.Contains(stderr.String(), c.stderr) {
				t.Fatalf("nugo %s: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), c.code, c.stderr)
			}
		})
	}
}
