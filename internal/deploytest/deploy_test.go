package deploytest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// primesChecksum is `nugo primes -n 100000`'s checksum.
const primesChecksum = "795571828"

// needGo skips (outside CI) or fails (CI) without the go command.
func needGo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIP: builds programs with the go command; not in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the go command is not on PATH: %v", err)
		}
		t.Skipf("SKIP: the go command is not on PATH: %v", err)
	}
	return gobin
}

// moduleRoot is the nugo checkout holding this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}

// run runs a command in dir with env (nil: the test's environment) and
// returns its combined output, failing the test when it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := runErr(t, dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return out
}

func runErr(t *testing.T, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	limit := 5 * time.Minute
	if d, ok := t.Deadline(); ok && time.Until(d) < limit {
		limit = max(time.Until(d)-5*time.Second, time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = env
	}
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// goEnv is the environment of go commands: the test's, without GOFLAGS
// (the quickstart must work without flags) and without touching the
// network: the module cache holds what the builds need, and go.sum lines
// are computed from it rather than checked with the checksum database.
func goEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GOFLAGS=") || strings.HasPrefix(kv, "GOPROXY=") || strings.HasPrefix(kv, "GOSUMDB=") || strings.HasPrefix(kv, "GOTOOLCHAIN=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOPROXY=off", "GOSUMDB=off", "GOTOOLCHAIN=local")
}

// buildModes are the two ways a binary records its source files.
var buildModes = []struct {
	name  string
	flags []string
}{
	{"plain", nil},
	{"trimpath", []string{"-trimpath"}},
}

// deploy copies the binary at bin into a new empty directory and returns
// a function that runs it there with only the given variables set, HOME,
// GOPATH and GOMODCACHE pointing at empty directories and no go command
// on PATH.
func deploy(t *testing.T, bin string) func(args []string, vars ...string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(bin))
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	for _, d := range []string{"home", "gopath", "modcache"} {
		if err := os.Mkdir(filepath.Join(empty, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := "/usr/bin:/bin"
	for _, p := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(p, "go")); err == nil {
			t.Fatalf("%s/go exists: the deployed binary must run where no go command is", p)
		}
	}
	return func(args []string, vars ...string) (string, error) {
		env := append([]string{"PATH=" + path, "HOME=" + filepath.Join(empty, "home"),
			"GOPATH=" + filepath.Join(empty, "gopath"), "GOMODCACHE=" + filepath.Join(empty, "modcache")}, vars...)
		if lib := os.Getenv("NUGO_LIBCUDA"); lib != "" {
			env = append(env, "NUGO_LIBCUDA="+lib)
		}
		return runErr(t, dir, env, dst, args...)
	}
}

// backends are the compiled backends a deployed binary must run kernels on
// without its source: ptxsim, and the GPU backend over the fake driver.
var backends = []struct {
	name string
	vars []string
}{
	{"ptxsim", []string{"NUGO_BACKEND=ptxsim"}},
	{"fake-gpu", []string{"NUGO_BACKEND=gpu", "NUGO_FAKE_GPU=1"}},
}

// TestDeployedNugoRunsPrimes: cmd/nugo, built with and without -trimpath
// and run from an empty directory, runs the capstone on ptxsim and on the
// simulated GPU with the checksum of the in-tree run.
func TestDeployedNugoRunsPrimes(t *testing.T) {
	gobin := needGo(t)
	root := moduleRoot(t)
	inTree := run(t, root, goEnv(), gobin, "run", "./cmd/nugo", "primes", "-n", "100000", "-backend", "cpu")
	if !strings.Contains(inTree, "checksum    "+primesChecksum) {
		t.Fatalf("in-tree nugo primes:\n%s\nwant checksum %s", inTree, primesChecksum)
	}
	for _, m := range buildModes {
		t.Run(m.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "nugo")
			run(t, root, goEnv(), gobin, append(append([]string{"build"}, m.flags...), "-o", bin, "./cmd/nugo")...)
			exe := deploy(t, bin)
			for _, b := range backends {
				out, err := exe([]string{"primes", "-n", "100000", "-backend", strings.TrimPrefix(b.vars[0], "NUGO_BACKEND=")}, b.vars[1:]...)
				if err != nil || checksumOf(out) != primesChecksum {
					t.Errorf("%s, deployed, on %s: %v\n%s\nwant checksum %s", m.name, b.name, err, out, primesChecksum)
				}
			}
		})
	}
}

// checksumOf is the value of nugo primes' checksum line.
func checksumOf(out string) string {
	m := regexp.MustCompile(`(?m)^checksum\s+(\d+)$`).FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestDeployedExampleMatchesInTree: an example's binary prints in an
// empty directory what the example prints in its source tree.
func TestDeployedExampleMatchesInTree(t *testing.T) {
	gobin := needGo(t)
	root := moduleRoot(t)
	dir := filepath.Join(root, "examples", "vectoradd")
	want := run(t, dir, append(goEnv(), "NUGO_BACKEND=cpu"), gobin, "run", ".")
	for _, m := range buildModes {
		t.Run(m.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "vectoradd")
			run(t, dir, goEnv(), gobin, append(append([]string{"build"}, m.flags...), "-o", bin, ".")...)
			exe := deploy(t, bin)
			for _, b := range backends {
				out, err := exe(nil, b.vars...)
				if err != nil || out != want {
					t.Errorf("%s, deployed, on %s: %v\n%s\nin the tree on the CPU:\n%s", m.name, b.name, err, out, want)
				}
			}
		})
	}
}

// userModule makes a module outside nugo's tree that uses nugo as the
// docs/deploying.md's "Use nugo in your module" says: require (here replaced by this
// checkout, as a released version would be fetched), go get -tool, go
// generate. (go mod tidy would also fetch the go.mod files of the
// dependencies' own tests, which needs the network.) It returns the
// module's directory.
func userModule(t *testing.T, gobin, root string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "nugouser")
	for src, dst := range map[string]string{"main.go.txt": "main.go", "devfn/devfn.go.txt": "devfn/devfn.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "usermod", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := goEnv()
	run(t, dir, env, gobin, "mod", "init", "example.com/nugouser")
	run(t, dir, env, gobin, "mod", "edit", "-require=github.com/nugo-dev/nugo@v0.0.0-00010101000000-000000000000", "-replace=github.com/nugo-dev/nugo="+root)
	run(t, dir, env, gobin, "get", "-tool", "github.com/nugo-dev/nugo/cmd/nugo")
	run(t, dir, env, gobin, "generate", "./...")
	for _, f := range []string{"nugo_loops.go", "nugo_source.go"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("go generate did not write %s: %v", f, err)
		}
	}
	return dir
}

// resultLine drops the backend's name from the user program's output.
func resultLine(out string) string {
	return regexp.MustCompile(`backend=\S+ `).ReplaceAllString(strings.TrimSpace(out), "")
}

// TestUserModuleDeploys: a user's module (a kernel calling a device
// function of another package, a CUDA-target ufunc and gufunc) set up as
// docs/deploying.md says, with no GOFLAGS, builds into a binary that computes in
// an empty directory, on ptxsim and the simulated GPU, bit for bit what it
// computes in its tree on the CPU; and reports a kernel's failure at the
// same position on every backend, in both build modes.
func TestUserModuleDeploys(t *testing.T) {
	gobin := needGo(t)
	root := moduleRoot(t)
	dir := userModule(t, gobin, root)
	want := resultLine(run(t, dir, append(goEnv(), "NUGO_BACKEND=cpu"), gobin, "run", "."))
	if !strings.Contains(want, "kernel=") {
		t.Fatalf("in-tree run: %s", want)
	}
	for _, m := range buildModes {
		t.Run(m.name, func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "nugouser")
			run(t, dir, goEnv(), gobin, append(append([]string{"build"}, m.flags...), "-o", bin, ".")...)
			exe := deploy(t, bin)
			cpuFail, err := exe([]string{"fail"}, "NUGO_BACKEND=cpu")
			if err != nil || !strings.Contains(cpuFail, "main.go:") {
				t.Fatalf("the failing kernel on the CPU: %v\n%s", err, cpuFail)
			}
			if m.name == "trimpath" && !strings.Contains(cpuFail, "pos=example.com/nugouser/main.go:") {
				t.Errorf("with -trimpath the CPU reports %q; want the module-relative file", cpuFail)
			}
			for _, b := range backends {
				out, err := exe(nil, b.vars...)
				if err != nil || resultLine(out) != want {
					t.Errorf("deployed, on %s: %v\n%s\nwant (in the tree, on the CPU)\n%s", b.name, err, out, want)
				}
				fail, err := exe([]string{"fail"}, b.vars...)
				if err != nil || fail != cpuFail {
					t.Errorf("the failing kernel on %s: %v\n%s\nthe CPU backend:\n%s", b.name, err, fail, cpuFail)
				}
			}
		})
	}
}

// TestStaleCopyIsAnError: a device function of another package edited
// after go generate, without running it again, makes the compiled
// backends refuse the copy with a message naming go generate; the CPU
// backend, which runs the binary's own code, is unaffected. An edit of a
// kernel in the package itself needs no go generate: the binary embeds
// that package's files, so every backend runs the new code.
func TestStaleCopyIsAnError(t *testing.T) {
	gobin := needGo(t)
	root := moduleRoot(t)
	dir := userModule(t, gobin, root)

	// A line added above the device functions moves them in the binary.
	lib := filepath.Join(dir, "devfn", "devfn.go")
	src, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(src, []byte("// Poly evaluates"), []byte("// (edited after go generate)\n\n// Poly evaluates"), 1)
	if err := os.WriteFile(lib, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "nugouser")
	run(t, dir, goEnv(), gobin, "build", "-o", bin, ".")
	exe := deploy(t, bin)
	out, err := exe(nil, "NUGO_BACKEND=ptxsim")
	if err == nil || !strings.Contains(out, "run go generate") || !strings.Contains(out, "example.com/nugouser/devfn") {
		t.Errorf("a stale copy on ptxsim: %v\n%s\nwant an error naming the package and go generate", err, out)
	}
	if cpu, err := exe(nil, "NUGO_BACKEND=cpu"); err != nil || !strings.Contains(cpu, "kernel=") {
		t.Errorf("the CPU backend with a stale copy: %v\n%s", err, cpu)
	}

	// go generate again: the copy is current.
	run(t, dir, goEnv(), gobin, "generate", "./...")
	run(t, dir, goEnv(), gobin, "build", "-o", bin, ".")
	exe = deploy(t, bin)
	if out, err := exe(nil, "NUGO_BACKEND=ptxsim"); err != nil || !strings.Contains(out, "kernel=") {
		t.Errorf("after go generate: %v\n%s", err, out)
	}

	// The kernel itself edited, no go generate: every backend runs the edit.
	main := filepath.Join(dir, "main.go")
	src, err = os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	edited = bytes.Replace(src, []byte("devfn.Poly(in[i])*k"), []byte("devfn.Poly(in[i])*k+1"), 1)
	if bytes.Equal(edited, src) {
		t.Fatal("the kernel's text to edit was not found")
	}
	if err := os.WriteFile(main, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, goEnv(), gobin, "build", "-o", bin, ".")
	exe = deploy(t, bin)
	cpu, err := exe(nil, "NUGO_BACKEND=cpu")
	if err != nil {
		t.Fatalf("CPU after editing the kernel: %v\n%s", err, cpu)
	}
	sim, err := exe(nil, "NUGO_BACKEND=ptxsim")
	if err != nil || resultLine(sim) != resultLine(cpu) {
		t.Errorf("after editing the kernel, ptxsim: %v\n%s\nthe CPU:\n%s", err, sim, cpu)
	}
}
