package cuda_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/hostmem"
)

// TestHostMemoryAccounted: on the backends that keep device arrays in host
// memory, arrays that together exceed the machine's RAM and swap are an
// out-of-memory error, as on a GPU, although each alone would fit; freeing
// one makes room again (issue 21, item 5). The machine is taken to have
// 256 MiB (hostmem.SetRAMForTest), so that nothing large is allocated.
func TestHostMemoryAccounted(t *testing.T) {
	const ram = 256 << 20
	big := ram * 6 / 10
	for _, b := range []Backend{CPU, PTXSim} {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			t.Cleanup(hostmem.SetRAMForTest(ram + hostmem.Reserved()))
			base := hostmem.Reserved()
			a, err := NewDeviceArray[byte](big)
			if err != nil {
				t.Fatalf("one array of %d bytes: %v", big, err)
			}
			_, err = NewDeviceArray[byte](big)
			if !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), "RAM and swap") {
				t.Fatalf("a second array of %d bytes: %v, want ErrOutOfMemory", big, err)
			}
			if err := a.Free(); err != nil {
				t.Fatal(err)
			}
			c, err := NewDeviceArray[byte](big)
			if err != nil {
				t.Fatalf("after Free, an array of %d bytes: %v", big, err)
			}
			runtime.KeepAlive(a)
			if err := c.Free(); err != nil {
				t.Fatal(err)
			}
			// Arrays of earlier tests may be collected meanwhile, so at
			// most what was accounted before.
			if got := hostmem.Reserved(); got > base {
				t.Errorf("%d bytes accounted after freeing everything, more than the %d before", got, base)
			}
		})
	}
}

// is32bit reports a 32-bit platform, where the sizes above overflow.
func is32bit() bool { return ^uint(0)>>32 == 0 }

// TestHostMemoryUnderUlimit: under an address-space limit (ulimit -v) an
// array larger than what is left is an error, not the runtime's fatal out
// of memory. The check runs in a child process, whose limit is lowered.
func TestHostMemoryUnderUlimit(t *testing.T) {
	if runtime.GOOS != "linux" || is32bit() {
		t.Skip("SKIP: RLIMIT_AS is set here only on 64-bit Linux")
	}
	if os.Getenv("NUGO_TEST_ULIMIT_CHILD") == "1" {
		ulimitChild(t)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHostMemoryUnderUlimit$", "-test.v")
	cmd.Env = append(os.Environ(), "NUGO_TEST_ULIMIT_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ulimit child: refused") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func ulimitChild(t *testing.T) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	var vm int64
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmSize:" {
			for _, c := range f[1] {
				vm = vm*10 + int64(c-'0')
			}
			vm <<= 10
		}
	}
	if vm == 0 {
		t.Fatal("no VmSize in /proc/self/status")
	}
	lim := uint64(vm + 1<<30)
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		t.Fatal(err)
	}
	for _, b := range []Backend{CPU, PTXSim} {
		onBackend(t, b)
		_, err := NewDeviceArray[byte](2 << 30)
		if !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), "ulimit -v") {
			t.Fatalf("%s: 2 GiB under a limit 1 GiB above the process's size: %v, want ErrOutOfMemory", b, err)
		}
		a, err := NewDeviceArray[byte](64 << 20)
		if err != nil {
			t.Fatalf("%s: 64 MiB: %v", b, err)
		}
		a.Free()
	}
	t.Log("ulimit child: refused 2 GiB, allocated 64 MiB")
}

// TestDriverOutOfMemoryIsErrOutOfMemory: the GPU's out-of-memory result
// matches the same sentinel as the host backends' refusals.
func TestDriverOutOfMemoryIsErrOutOfMemory(t *testing.T) {
	for _, c := range []struct {
		code int
		want bool
	}{{2, true}, {1, false}, {999, false}} {
		err := error(&DriverError{Call: "cuMemAlloc", Code: c.code})
		if got := errors.Is(fmt.Errorf("NewDeviceArray: %w", err), ErrOutOfMemory); got != c.want {
			t.Errorf("code %d: errors.Is(ErrOutOfMemory) = %v", c.code, got)
		}
	}
}
