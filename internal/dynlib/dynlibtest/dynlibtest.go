// Package dynlibtest builds C mocks of NVIDIA's libraries for the ABI tests
// of the packages that bind them: what C receives for each call is checked
// against the exact C signatures, without the real library or a GPU.
package dynlibtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BuildMock compiles the C file src into a shared library named soName in
// a temporary directory and returns its path. Without a C compiler the
// test fails when required (CI), and is skipped, visibly, otherwise.
func BuildMock(t testing.TB, src, soName string, required bool) string {
	t.Helper()
	cc := ""
	for _, name := range []string{os.Getenv("CC"), "cc", "gcc", "clang"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			cc = p
			break
		}
	}
	if cc == "" {
		if required {
			t.Fatalf("CI requires a C compiler (cc) to build %s for the ABI test", src)
		}
		t.Skipf("SKIP ABI test: no C compiler (cc) to build %s", src)
	}
	so := filepath.Join(t.TempDir(), soName)
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", so, src).CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", src, err, out)
	}
	return so
}
