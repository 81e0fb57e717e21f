package hostmem

import (
	"errors"
	"strings"
	"testing"
)

func TestBudgetCheck(t *testing.T) {
	const g = 1 << 30
	for _, c := range []struct {
		name     string
		b        budget
		live, n  int64
		wantText string // "" fits
	}{
		{"fits", budget{ramSwap: 8 * g, cgroup: 4 * g, addrSpace: 16 * g}, g, g, ""},
		{"unknown limits", budget{}, 1 << 50, 1 << 50, ""},
		{"RAM and swap, with live arrays", budget{ramSwap: 8 * g}, 5 * g, 5 * g, "RAM and swap"},
		{"control group", budget{ramSwap: 8 * g, cgroup: 2 * g}, g, 2 * g, "control group"},
		{"address space", budget{ramSwap: 64 * g, addrSpace: g}, 0, g, "ulimit -v"},
		{"address space exhausted", budget{addrSpace: 1}, 0, 1, "ulimit -v"},
	} {
		err := c.b.check(c.live, c.n)
		if c.wantText == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), c.wantText) {
			t.Errorf("%s: %v, want ErrOutOfMemory mentioning %q", c.name, err, c.wantText)
		}
	}
}

func TestReserveRelease(t *testing.T) {
	base := Reserved()
	defer SetRAMForTest(base + 100)()
	if err := Reserve(60); err != nil {
		t.Fatal(err)
	}
	if err := Reserve(60); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("second Reserve(60) of 100 = %v", err)
	}
	Release(60)
	if err := Reserve(60); err != nil {
		t.Fatalf("Reserve after Release: %v", err)
	}
	Release(60)
	if Reserved() != base {
		t.Errorf("Reserved() = %d, want %d", Reserved(), base)
	}
	if err := Reserve(-1); err == nil {
		t.Error("Reserve(-1) succeeded")
	}
}
