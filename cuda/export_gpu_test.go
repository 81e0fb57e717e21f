package cuda

import (
	"testing"

	"github.com/nugo-dev/nugo/internal/driver"
)

// UseGPUDriver makes a GPU backend over api the current backend, and the
// one Gpus and SelectDevice see, until the test ends; then the previous
// state returns and the backend's contexts are released.
func UseGPUDriver(t testing.TB, api driver.API) {
	t.Helper()
	be, err := newGPUBackend(api)
	if err != nil {
		t.Fatalf("GPU backend over the fake driver: %v", err)
	}
	registry.Lock()
	oldCur := registry.current
	oldGPU, hadGPU := registry.opened[GPU]
	registry.current = be
	registry.opened[GPU] = be
	registry.Unlock()
	t.Cleanup(func() {
		registry.Lock()
		registry.current = oldCur
		if hadGPU {
			registry.opened[GPU] = oldGPU
		} else {
			delete(registry.opened, GPU)
		}
		registry.Unlock()
		if err := be.close(); err != nil {
			t.Errorf("closing the GPU backend: %v", err)
		}
	})
}

// NewGPUBackendError is the error opening a GPU backend over api gives
// (nil when it opens; the backend is then closed at once).
func NewGPUBackendError(api driver.API) error {
	be, err := newGPUBackend(api)
	if err != nil {
		return err
	}
	return be.close()
}

// ForgetBackend clears the backend choice so that the next use reads
// NUGO_BACKEND again, and forgets an opened GPU backend; the previous state
// returns when the test ends.
func ForgetBackend(t testing.TB) {
	registry.Lock()
	oldCur := registry.current
	oldGPU, hadGPU := registry.opened[GPU]
	registry.current = nil
	delete(registry.opened, GPU)
	registry.Unlock()
	t.Cleanup(func() {
		registry.Lock()
		opened := registry.opened[GPU]
		registry.current = oldCur
		if hadGPU {
			registry.opened[GPU] = oldGPU
		} else {
			// A GPU backend the test opened (NUGO_FAKE_GPU's, say) must not
			// outlive it: later tests would take it for a real GPU.
			delete(registry.opened, GPU)
		}
		registry.Unlock()
		if g, ok := opened.(*gpuBackend); ok && opened != oldGPU {
			if err := g.close(); err != nil {
				t.Errorf("closing the GPU backend the test opened: %v", err)
			}
		}
	})
}

// ForgetGPUFaults makes the current GPU backend's devices usable again
// after a kernel fault, which a real context never is: for tests on the
// fake driver, after its ClearFaults, so that one faulting case of a table
// does not fail the cases after it.
func ForgetGPUFaults() {
	registry.Lock()
	be, _ := registry.current.(*gpuBackend)
	registry.Unlock()
	if be == nil {
		return
	}
	be.mu.Lock()
	defer be.mu.Unlock()
	for _, d := range be.devs {
		if d != nil {
			d.fault.Store(nil)
		}
	}
}

// DisablePrintfFlush stops the GPU backend from flushing C's stdout after
// synchronizing, until the test ends.
func DisablePrintfFlush(t testing.TB) {
	saved := flushCStdout
	flushCStdout = func() error { return nil }
	t.Cleanup(func() { flushCStdout = saved })
}
