package hostmem

import (
	"runtime"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	if err := Check("x", 0); err != nil {
		t.Errorf("Check(0) = %v", err)
	}
	if err := Check("x", 1<<20); err != nil {
		t.Errorf("Check(1 MiB) = %v", err)
	}
	if err := Check("x", -1); err == nil || !strings.HasPrefix(err.Error(), "x: ") {
		t.Errorf("Check(-1) = %v, want an error naming x", err)
	}
	if runtime.GOOS == "linux" {
		if err := Check("x", Limit()+1); err == nil || !strings.Contains(err.Error(), "out of memory") {
			t.Errorf("Check(Limit()+1) = %v, want out of memory", err)
		}
	}
}
