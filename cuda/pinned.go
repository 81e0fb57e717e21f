package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
)

// Pinned is host memory page-locked for the GPU (Numba's cuda.pinned), made
// by Pin. Asynchronous copies between it and device memory (ToDeviceAsync,
// CopyFromHostAsync, CopyToHostAsync, and a host slice argument of a launch
// on a stream) go straight between it and the device, without the
// page-locked staging copy nugo makes for ordinary Go memory, so they
// overlap with kernels and with the host. On the host backends pinning
// only keeps the bookkeeping, so the same program runs everywhere.
//
// As on every backend, memory handed to an asynchronous copy must not be
// touched until the stream has passed the copy (its Synchronize returned);
// with pinned memory the copy reads and writes it when the stream gets
// there, not when it is queued.
type Pinned struct {
	be backend

	mu     sync.Mutex
	span   []byte // the pinned bytes; nil once unpinned
	pinner runtime.Pinner
	unpin  func() error // the backend's undo

	// mapped is the buffer of the mapped array whose memory this pin lies
	// in, kept reachable while pinned; nil for memory Pin locked itself.
	mapped *deviceBuffer
}

// pinned are the live pins of every backend, so that an overlapping Pin is
// refused alike everywhere and the GPU backend can tell pinned memory.
var pinned struct {
	sync.Mutex
	list []*Pinned
}

// errOverlapsPinned reports a Pin of memory that is pinned already.
var errOverlapsPinned = errors.New("the memory overlaps memory pinned before; unpin that first")

// errStraddlesMapped reports a Pin of memory partly inside a mapped array.
var errStraddlesMapped = errors.New("the memory lies partly inside a MappedArray's memory (which is pinned already) and partly outside it; pin the two parts apart")

// Pin page-locks host, a slice of numbers or of structs of numbers, which
// must stay referenced while pinned (the Pinned keeps it so), for the
// current backend; Unpin undoes it. On the GPU this
// is cuMemHostRegister, valid in every device's context. An empty host
// pins nothing.
//
// Memory of a live MappedArray (its Host slice or part of it) is pinned
// already: Pin of it registers nothing, as many times as asked, and
// returns a Pinned that keeps the array from being collected and whose
// Unpin leaves the array's memory mapped. Freeing the array ends its
// pinning; the Pinned then no longer speeds copies. Memory partly inside
// a mapped array and partly outside is refused, on every backend alike.
func Pin[T any](host []T) (*Pinned, error) {
	if err := checkElem[T](); err != nil {
		return nil, fmt.Errorf("Pin: %w", err)
	}
	be, err := current()
	if err != nil {
		return nil, fmt.Errorf("Pin: %w", err)
	}
	p := &Pinned{be: be, span: bytesOf(host), unpin: func() error { return nil }}
	if len(p.span) == 0 {
		return p, nil
	}
	buf, inside, err := mappedAt(be, p.span)
	if err != nil {
		return nil, fmt.Errorf("Pin %d bytes at %p: %w", len(p.span), &p.span[0], err)
	}
	pinned.Lock()
	defer pinned.Unlock()
	if inside {
		p.mapped = buf
		pinned.list = append(pinned.list, p)
		return p, nil
	}
	for _, q := range pinned.list {
		if q.mapped != nil && !q.mapped.live() {
			continue // the mapped array was freed: its memory is ordinary again
		}
		if overlaps(p.span, q.span) {
			return nil, fmt.Errorf("Pin %d bytes at %p: %w", len(p.span), &p.span[0], errOverlapsPinned)
		}
	}
	p.pinner.Pin(&p.span[0])
	if p.unpin, err = be.pin(p.span); err != nil {
		p.pinner.Unpin()
		return nil, fmt.Errorf("Pin %d bytes: %w", len(p.span), err)
	}
	pinned.list = append(pinned.list, p)
	return p, nil
}

// Unpin waits for all queued work of the backend (which may still be
// copying the memory), then returns the memory to ordinary pageable
// memory. It is idempotent; a nil Pinned is an error.
func (p *Pinned) Unpin() error {
	if p == nil {
		return errors.New("Unpin of a nil *cuda.Pinned")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.span == nil {
		return nil
	}
	pinned.Lock()
	for i, q := range pinned.list {
		if q == p {
			pinned.list = append(pinned.list[:i], pinned.list[i+1:]...)
			break
		}
	}
	pinned.Unlock()
	err := p.unpin()
	p.pinner.Unpin()
	p.span, p.mapped = nil, nil
	if err != nil {
		return fmt.Errorf("Unpin: %w", err)
	}
	return nil
}

// Bytes is the size of the pinned memory (0 once unpinned).
func (p *Pinned) Bytes() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.span)
}

// isPinned reports whether all of b lies in memory pinned on backend be.
func isPinned(be backend, b []byte) bool {
	if len(b) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	pinned.Lock()
	defer pinned.Unlock()
	for _, p := range pinned.list {
		s := uintptr(unsafe.Pointer(&p.span[0]))
		if p.be == be && start >= s && start+uintptr(len(b)) <= s+uintptr(len(p.span)) &&
			(p.mapped == nil || p.mapped.live()) {
			return true
		}
	}
	return false
}

// overlaps reports whether two non-empty byte ranges share memory.
func overlaps(a, b []byte) bool {
	as, bs := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0]))
	return as < bs+uintptr(len(b)) && bs < as+uintptr(len(a))
}

// pin is a host backend's Pin: there is nothing to lock.
func (h *hostBackend) pin([]byte) (func() error, error) {
	return func() error { return nil }, nil
}

// pin registers b with the driver through the selected device's context,
// as portable memory (pinned for every context); the undo drains every
// stream first, since queued copies may still use b.
func (g *gpuBackend) pin(b []byte) (func() error, error) {
	d := g.current()
	ptr := unsafe.Pointer(&b[0])
	if err := d.do(func(api driver.API) error {
		return api.MemHostRegister(ptr, len(b), driver.HostRegisterPortable)
	}); err != nil {
		return nil, err
	}
	return func() error {
		err := g.drainAll()
		if uerr := d.do(func(api driver.API) error { return api.MemHostUnregister(ptr) }); err == nil {
			err = uerr
		}
		return err
	}, nil
}
