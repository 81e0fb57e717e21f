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

// Memory partly inside a mapped array's range is refused by Pin's lookup;
// memory wholly inside finds the array, and a freed array is forgotten.
func TestMappedAtStraddle(t *testing.T) {
	be := &hostBackend{}
	mappedAtMem = make([]byte, 64) // on the heap: a stack may move
	mem := mappedAtMem
	buf := &deviceBuffer{memory: &hostMemory{}}
	addMapped(be, mem[16:48], buf)
	for _, c := range []struct {
		name   string
		lo, hi int
		inside bool
		err    error
	}{
		{"inside", 16, 48, true, nil},
		{"part", 20, 30, true, nil},
		{"before", 0, 16, false, nil},
		{"after", 48, 64, false, nil},
		{"straddles the start", 8, 24, false, errStraddlesMapped},
		{"straddles the end", 40, 56, false, errStraddlesMapped},
		{"covers", 0, 64, false, errStraddlesMapped},
	} {
		got, inside, err := mappedAt(be, mem[c.lo:c.hi])
		if inside != c.inside || !errors.Is(err, c.err) || (inside && got != buf) {
			t.Errorf("%s: inside %v, err %v; want %v, %v", c.name, inside, err, c.inside, c.err)
		}
		if _, inside, _ := mappedAt(&hostBackend{}, mem[c.lo:c.hi]); inside {
			t.Errorf("%s: found on another backend", c.name)
		}
	}
	buf.memory = nil
	if _, inside, err := mappedAt(be, mem[8:24]); inside || err != nil {
		t.Errorf("freed array: inside %v, err %v; want false, nil", inside, err)
	}
}

// mappedAtMem is TestMappedAtStraddle's memory.
var mappedAtMem []byte
