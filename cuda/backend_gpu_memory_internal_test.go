package cuda

import (
	"errors"
	"testing"

	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// A Free that comes while a call uses the memory (between its check and
// its driver calls) leaves the cuMemFree to that call; uses that start
// after it fail with ErrFreed.
func TestGPUAllocFreeWaitsForItsUsers(t *testing.T) {
	f := fakedriver.New(fakedriver.Config{})
	g, err := newGPUBackend(f)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	live := func() int { return f.Live().Allocs }
	for _, c := range []struct {
		name  string
		users int
	}{{"no user", 0}, {"one user", 1}, {"two users", 2}} {
		t.Run(c.name, func(t *testing.T) {
			mm, err := g.alloc(64)
			if err != nil {
				t.Fatal(err)
			}
			m := mm.(*gpuMemory)
			for range c.users {
				if _, err := g.useMem(m); err != nil {
					t.Fatal(err)
				}
			}
			if err := m.free(); err != nil {
				t.Fatal(err)
			}
			if _, err := g.useMem(m); !errors.Is(err, ErrFreed) {
				t.Errorf("use after Free = %v, want ErrFreed", err)
			}
			for i := range c.users {
				if live() != 1 {
					t.Fatalf("%d allocations with %d users left after Free, want 1", live(), c.users-i)
				}
				m.done()
			}
			if live() != 0 {
				t.Errorf("%d allocations once the last user is done, want 0", live())
			}
			if err := m.free(); err != nil || live() != 0 {
				t.Errorf("a second Free: %v, %d allocations", err, live())
			}
		})
	}
}
