package dynlib

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestOpenMissingLibrary(t *testing.T) {
	_, err := Open("libnugo-no-such-library.so.1")
	if err == nil || !strings.Contains(err.Error(), "cannot load libnugo-no-such-library.so.1") {
		t.Fatalf("Open of a missing library = %v", err)
	}
}

// A Proc looks up once, successes and failures alike, even when resolved
// from many goroutines at once.
func TestProcResolvesOnce(t *testing.T) {
	for _, fail := range []bool{false, true} {
		var p Proc
		var mu sync.Mutex
		calls := 0
		lookup := func() (uintptr, error) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if fail {
				return 0, errors.New("no such symbol")
			}
			return 0x1234, nil
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				addr, err := p.Resolve(lookup)
				if fail != (err != nil) || !fail && addr != 0x1234 {
					t.Errorf("Resolve = %#x, %v", addr, err)
				}
			}()
		}
		wg.Wait()
		if calls != 1 {
			t.Errorf("fail=%v: %d lookups, want 1", fail, calls)
		}
	}
}

func TestCString(t *testing.T) {
	b := []byte("nvidia\x00rest")
	if got := CString(&b[0]); got != "nvidia" {
		t.Errorf("CString = %q", got)
	}
	if got := CString(nil); got != "" {
		t.Errorf("CString(nil) = %q", got)
	}
}
