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

// Mapped memory in use when freed is unregistered by its last user, as
// device memory is freed; managed memory is freed with cuMemFree.
func TestGPUSharedFreeWaitsForItsUsers(t *testing.T) {
	f := fakedriver.New(fakedriver.Config{})
	g, err := newGPUBackend(f)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	for _, c := range []struct {
		kind sharedKind
		live func(fakedriver.Live) int
		call string
	}{
		{sharedMapped, func(l fakedriver.Live) int { return l.Registered }, "cuMemHostUnregister"},
		{sharedManaged, func(l fakedriver.Live) int { return l.Allocs }, "cuMemFree"},
	} {
		t.Run(c.kind.String(), func(t *testing.T) {
			mm, host, _, err := g.allocShared(c.kind, 64)
			if err != nil {
				t.Fatal(err)
			}
			if host == nil {
				t.Fatal("no host address")
			}
			m := mm.(*gpuMemory)
			if _, err := g.useMem(m); err != nil {
				t.Fatal(err)
			}
			before := f.Count(c.call)
			if err := m.free(); err != nil {
				t.Fatal(err)
			}
			if c.live(f.Live()) != 1 || f.Count(c.call) != before {
				t.Fatalf("freed under its user: %+v", f.Live())
			}
			m.done()
			if c.live(f.Live()) != 0 || f.Count(c.call) != before+1 {
				t.Errorf("after the last user: %+v, %d %s calls", f.Live(), f.Count(c.call)-before, c.call)
			}
		})
	}
}
