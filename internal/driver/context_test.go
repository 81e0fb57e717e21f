package driver_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

func started(t *testing.T) *fakedriver.Fake {
	t.Helper()
	f := fakedriver.New(fakedriver.Config{})
	if n, err := driver.Start(f); err != nil || n != 1 {
		t.Fatalf("Start = %d, %v", n, err)
	}
	return f
}

// Do makes the primary context current on whatever OS thread the goroutine
// runs on; without it the fake, like CUDA, refuses context calls.
func TestDeviceContextDo(t *testing.T) {
	f := started(t)
	dc, err := driver.OpenDevice(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := dc.Props(); p.Arch() != "sm_75" || p.MaxThreadsPerBlk != 1024 || p.TotalMem != 1<<30 {
		t.Fatalf("props %+v", p)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 16 {
		wg.Go(func() {
			for range 4 {
				errs <- dc.Do(func(api driver.API) error {
					p, err := api.MemAlloc(64)
					if err != nil {
						return err
					}
					if c, err := api.CtxGetCurrent(); err != nil || c != dc.Context() {
						return errors.New("wrong context current inside Do")
					}
					return api.MemFree(p)
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Nested Do keeps the thread locked and the context current.
	err = dc.Do(func(api driver.API) error {
		return dc.Do(func(api driver.API) error { _, _, err := api.MemGetInfo(); return err })
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := dc.Close(); err != nil {
		t.Fatal(err)
	}
	if err := dc.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := dc.Do(func(driver.API) error { return nil }); !errors.Is(err, driver.ErrClosed) {
		t.Fatalf("Do after Close = %v", err)
	}
	if f.Count("cuDevicePrimaryCtxRelease") != 1 {
		t.Fatal("Close did not release the primary context exactly once")
	}
}

func TestOpenDeviceErrors(t *testing.T) {
	for _, call := range []string{"cuDeviceGet", "cuDeviceGetName", "cuDeviceTotalMem", "cuDeviceGetAttribute", "cuDevicePrimaryCtxRetain"} {
		f := started(t)
		f.Inject(fakedriver.Fault{Call: call, Code: driver.ErrorInvalidDevice})
		_, err := driver.OpenDevice(f, 0)
		var e *driver.Error
		if !errors.As(err, &e) || e.Call != call {
			t.Errorf("fault in %s: OpenDevice = %v", call, err)
		}
	}
	f := started(t)
	dc, err := driver.OpenDevice(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Inject(fakedriver.Fault{Call: "cuCtxSetCurrent", Code: driver.ErrorContextIsDestroyed})
	if err := dc.Do(func(driver.API) error { t.Error("f ran"); return nil }); driver.Code(err) != driver.ErrorContextIsDestroyed {
		t.Fatalf("Do with a failing cuCtxSetCurrent = %v", err)
	}
}

func TestStartMapsEveryFailureToNoDevice(t *testing.T) {
	for _, call := range []string{"cuInit", "cuDeviceGetCount"} {
		f := fakedriver.New(fakedriver.Config{})
		f.Inject(fakedriver.Fault{Call: call, Code: driver.ErrorSystemDriverMismatch})
		_, err := driver.Start(f)
		if !errors.Is(err, driver.ErrNoDevice) || driver.Code(err) != driver.ErrorSystemDriverMismatch {
			t.Errorf("fault in %s: Start = %v", call, err)
		}
	}
}

// The per-sequence cost of the context discipline: lock the OS thread, set
// the context current, unlock (against the fake, so the driver's own cost
// of cuCtxSetCurrent is not included).
func BenchmarkDeviceContextDo(b *testing.B) {
	f := fakedriver.New(fakedriver.Config{})
	if _, err := driver.Start(f); err != nil {
		b.Fatal(err)
	}
	dc, err := driver.OpenDevice(f, 0)
	if err != nil {
		b.Fatal(err)
	}
	nop := func(driver.API) error { return nil }
	for b.Loop() {
		if err := dc.Do(nop); err != nil {
			b.Fatal(err)
		}
	}
}
