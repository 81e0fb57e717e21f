package cuda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/nugo-dev/nugo/internal/hostmem"
	"reflect"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// executor runs a kernel over a grid on host memory. The CPU and ptxsim
// backends share everything else (hostBackend) and differ only here.
type executor interface {
	kind() Backend
	// execute runs k to completion; args are the kernel's arguments after
	// the Thread, as Go values over host memory (device arrays are views of
	// their host-backend memory), and bound the same arguments as checked
	// by Launch (for executors that pack parameters with packParams).
	execute(k *Kernel, cfg LaunchConfig, args []reflect.Value, bound []boundArg) error
}

// hostBackend keeps device memory in host memory and runs each stream's
// work in order on a goroutine of its own, started when work is queued and
// gone when the queue is empty, so idle streams hold no goroutine.
type hostBackend struct {
	exec executor

	mu        sync.Mutex
	busy      map[*hostStream]struct{} // streams with queued or running work
	limitVals map[Limit]int            // values given to SetLimit

	virtual // which virtual device this is (virtual.go)
}

func newHostBackend(exec executor) *hostBackend {
	h := &hostBackend{exec: exec, busy: map[*hostStream]struct{}{}}
	h.self = h
	return h
}

func (h *hostBackend) kind() Backend  { return h.exec.kind() }
func (h *hostBackend) limits() Limits { return defaultLimits }
func (h *hostBackend) devices() ([]Device, error) {
	return nil, fmt.Errorf("%w: the %s backend runs on the host", ErrNoDevice, h.kind())
}
func (h *hostBackend) selectDevice(int) error {
	return fmt.Errorf("%w: the %s backend runs on the host", ErrNoDevice, h.kind())
}

// hostMemory is device memory of a host backend: 8-byte aligned, zeroed.
type hostMemory struct {
	words []uint64
	n     int
	acct  *hostAccount
}

// hostAccount gives a host array's bytes back to hostmem's accounting
// once: at Free, or when the garbage collector takes an array never freed.
type hostAccount struct {
	once sync.Once
	n    int
}

func (a *hostAccount) release() { a.once.Do(func() { hostmem.Release(a.n) }) }

// alloc accounts the bytes against what the process can get (hostmem), so
// that arrays which together do not fit are an out-of-memory error, as
// on a GPU, and not the Go runtime's fatal error later.
func (h *hostBackend) alloc(bytes int) (memory, error) {
	if bytes < 0 {
		return nil, fmt.Errorf("cannot allocate %d bytes", bytes)
	}
	if err := hostmem.Reserve(bytes); err != nil {
		return nil, fmt.Errorf("the %s backend keeps device arrays in host memory: %w", h.kind(), err)
	}
	words, err := allocWords((bytes + 7) / 8)
	if err != nil {
		hostmem.Release(bytes)
		return nil, err
	}
	m := &hostMemory{words: words, n: bytes, acct: &hostAccount{n: bytes}}
	runtime.AddCleanup(m, (*hostAccount).release, m.acct)
	return m, nil
}

// allocWords turns the runtime's out-of-memory panic for absurd sizes into
// an error. (A true exhaustion of host memory still ends the process, as it
// does for any Go allocation.)
func allocWords(n int) (w []uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("out of memory allocating %d bytes: %v", n*8, r)
		}
	}()
	return make([]uint64, n), nil
}

func (m *hostMemory) size() int { return m.n }

// free leaves the words to the garbage collector, which takes them once
// the work queued on them (copies and launches on streams, which hold m)
// has run: freeing an array that queued work still uses is therefore
// safe, and free writes nothing that such work reads.
func (m *hostMemory) free() error {
	if m.acct != nil {
		m.acct.release()
	}
	return nil
}
func (m *hostMemory) ptr() unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(m.words))
}
func (m *hostMemory) bytes() []byte { return unsafe.Slice((*byte)(m.ptr()), m.n) }

// run runs op on stream s: at once on the default stream (after all other
// streams have drained), else queued.
func (h *hostBackend) run(s *Stream, op func() error) error {
	if s == nil {
		if err := h.drainAll(); err != nil {
			return err
		}
		return op()
	}
	hs, ok := s.impl.(*hostStream)
	if !ok {
		return errors.New("stream does not belong to this backend")
	}
	hs.enqueue(op)
	return nil
}

func (h *hostBackend) copyToDevice(s *Stream, dst memory, off int, src []byte) error {
	d := dst.(*hostMemory)
	return h.run(s, func() error { copy(d.bytes()[off:], src); return nil })
}

func (h *hostBackend) copyToHost(s *Stream, dst []byte, src memory, off int) error {
	m := src.(*hostMemory)
	return h.run(s, func() error { copy(dst, m.bytes()[off:]); return nil })
}

// memset writes count copies of the size-byte pattern at off.
func (h *hostBackend) memset(dst memory, off int, pattern uint32, size, count int) (bool, error) {
	d := dst.(*hostMemory)
	var unit [4]byte
	binary.LittleEndian.PutUint32(unit[:], pattern)
	return true, h.run(nil, func() error {
		b := d.bytes()[off : off+size*count]
		for i := 0; i < len(b); i += size {
			copy(b[i:i+size], unit[:size])
		}
		return nil
	})
}

func (h *hostBackend) copyDevice(s *Stream, dst memory, dstOff int, src memory, srcOff, n int) error {
	d, m := dst.(*hostMemory), src.(*hostMemory)
	return h.run(s, func() error { copy(d.bytes()[dstOff:dstOff+n], m.bytes()[srcOff:srcOff+n]); return nil })
}

func (h *hostBackend) launch(s *Stream, k *Kernel, cfg LaunchConfig, args []boundArg) error {
	if err := h.injectedFault(); err != nil {
		return err
	}
	if c, ok := h.exec.(launchChecker); ok {
		if err := c.check(k, cfg, args); err != nil {
			return err
		}
	}
	vals := make([]reflect.Value, len(args))
	hostArgs := false
	for i, a := range args {
		switch {
		case a.dev != nil:
			m, err := a.dev.mem()
			if err != nil {
				return fmt.Errorf("%v: %w", a.param, err)
			}
			vals[i] = hostView(a.param, m.(*hostMemory), a.dev)
		case a.dir == transferIn && a.isHost():
			// The kernel's writes must not reach the host, as they do
			// not on a GPU: it works on a copy.
			c := reflect.MakeSlice(a.value.Type(), a.value.Len(), a.value.Len())
			reflect.Copy(c, a.value)
			vals[i] = c
		default:
			vals[i] = a.value
			hostArgs = hostArgs || a.isHost()
		}
	}
	return h.run(s, func() error {
		err := h.exec.execute(k, cfg, vals, args)
		var ke *KernelError
		if hostArgs && errors.As(err, &ke) {
			err = fmt.Errorf("%w (host slices passed to the launch may be partially written)", err)
		}
		if err != nil && s != nil {
			// Reported by Synchronize, away from the Launch call.
			err = fmt.Errorf("launch %s: %w", k.name, err)
		}
		return err
	})
}

// hostView makes the Go value a kernel parameter receives for a device
// array d of a host backend, whose memory is m: a slice of its elements,
// or an Array2/Array3 over its span with its strides.
func hostView(p *param, m *hostMemory, d deviceArg) reflect.Value {
	n := 1
	for _, x := range d.dims() {
		n *= x
	}
	ptr := m.ptr()
	spanElems := 0
	if n > 0 {
		// An empty view keeps the memory's start: its own may lie just past
		// the end of the allocation, where no Go pointer may point.
		ptr = unsafe.Add(ptr, d.offset())
		spanElems = d.spanBytes() / int(p.elem.Size())
	}
	if p.kind == arrayParam {
		first, strides := d.layout()
		if n == 0 {
			first = 0
		}
		return reflect.Zero(p.typ).Interface().(ndArray).view(ptr, spanElems, d.dims(), strides, first)
	}
	return reflect.SliceAt(p.elem, ptr, n).Convert(p.typ)
}

func (h *hostBackend) newStream() (streamImpl, error) {
	s := &hostStream{be: h}
	s.cond.L = &s.mu
	return s, nil
}

// synchronize waits for the device's streams; device 0, the backend the
// registry opened, waits for every virtual device's too, as the GPU
// backend's Synchronize waits for every device.
func (h *hostBackend) synchronize() error {
	first := h.drainAll()
	for _, o := range h.others() {
		if err := o.synchronize(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// drainAll waits for every busy stream and returns (and clears) the first
// error any of them met.
func (h *hostBackend) drainAll() error {
	h.mu.Lock()
	streams := make([]*hostStream, 0, len(h.busy))
	for s := range h.busy {
		streams = append(streams, s)
	}
	h.mu.Unlock()
	var first error
	for _, s := range streams {
		if err := s.synchronize(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// hostStream runs queued operations in order on a goroutine that exists
// only while there is work.
type hostStream struct {
	be      *hostBackend
	mu      sync.Mutex
	cond    sync.Cond
	queue   []func() error
	running bool
	err     error
}

func (s *hostStream) enqueue(op func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, op)
	if !s.running {
		s.running = true
		s.be.mu.Lock()
		s.be.busy[s] = struct{}{}
		s.be.mu.Unlock()
		go s.drain()
	}
}

func (s *hostStream) drain() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.running = false
			if s.err == nil {
				// A stream that failed stays busy until its error is
				// collected, so that the default stream's next operation
				// reports it even when the stream has finished first.
				s.be.mu.Lock()
				delete(s.be.busy, s)
				s.be.mu.Unlock()
			}
			s.cond.Broadcast()
			s.mu.Unlock()
			return
		}
		op := s.queue[0]
		s.queue[0] = nil
		s.queue = s.queue[1:]
		s.mu.Unlock()
		err := op()
		if err != nil {
			s.mu.Lock()
			if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
		}
	}
}

func (s *hostStream) synchronize() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.running {
		s.cond.Wait()
	}
	err := s.err
	s.err = nil
	if err != nil {
		s.be.mu.Lock()
		delete(s.be.busy, s) // kept busy for its error (see drain)
		s.be.mu.Unlock()
	}
	return err
}

// done reports whether the stream has nothing queued or running.
func (s *hostStream) done() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.running, nil
}

// waitEvent queues a wait for e's latest record: the queue's goroutine
// blocks until the record's stream reaches it. A record can only be waited
// for once queued, and each queue runs in order, so waits form no cycle.
func (s *hostStream) waitEvent(ei eventImpl) error {
	e, ok := ei.(*hostEvent)
	if !ok {
		return errors.New("event does not belong to this backend")
	}
	e.mu.Lock()
	r := e.last
	e.mu.Unlock()
	if r == nil || r.reached() {
		return nil // never recorded, or nothing left to wait for
	}
	s.enqueue(func() error { <-r.done; return nil })
	return nil
}

// addCallback runs fn in the queue, which holds back later work until fn
// returns, with the first error of the work before it.
func (s *hostStream) addCallback(fn func(error)) error {
	s.enqueue(func() error {
		s.mu.Lock()
		err := s.err
		s.mu.Unlock()
		if perr := callback(fn, err); perr != nil {
			s.mu.Lock()
			s.err = withPanic(s.err, perr)
			s.mu.Unlock()
		}
		return nil
	})
	return nil
}

// hostEvent completes when its stream reaches its latest record.
type hostEvent struct {
	mu   sync.Mutex
	last *hostRecord // nil until the first Record
}

// hostRecord is one Record of a hostEvent: done is closed, after at is
// set, when the stream reaches it.
type hostRecord struct {
	done chan struct{}
	at   time.Time
}

func (r *hostRecord) reached() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

func (h *hostBackend) newEvent() (eventImpl, error) {
	return &hostEvent{}, nil
}

func (h *hostBackend) record(ei eventImpl, s *Stream) error {
	e := ei.(*hostEvent)
	r := &hostRecord{done: make(chan struct{})}
	e.mu.Lock()
	prev := e.last
	e.last = r // before it is queued: a WaitEvent after Record returns must see it
	e.mu.Unlock()
	err := h.run(s, func() error {
		r.at = time.Now()
		close(r.done)
		return nil
	})
	if err != nil {
		// Not queued: it would never complete, and waiting for it would hang.
		e.mu.Lock()
		if e.last == r {
			e.last = prev
		}
		e.mu.Unlock()
	}
	return err
}

// latest is the event's latest record, or an error if it has none.
func (e *hostEvent) latest() (*hostRecord, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.last == nil {
		return nil, errors.New("event was never recorded")
	}
	return e.last, nil
}

func (e *hostEvent) synchronize() error {
	r, err := e.latest()
	if err != nil {
		return err
	}
	<-r.done
	return nil
}

func (e *hostEvent) query() (bool, error) {
	r, err := e.latest()
	if err != nil {
		return false, err
	}
	return r.reached(), nil
}

func (e *hostEvent) elapsedSince(start eventImpl) (time.Duration, error) {
	s, ok := start.(*hostEvent)
	if !ok {
		return 0, errors.New("events belong to different backends")
	}
	r0, err := s.latest()
	if err != nil {
		return 0, fmt.Errorf("start %w", err)
	}
	r1, err := e.latest()
	if err != nil {
		return 0, fmt.Errorf("end %w", err)
	}
	<-r0.done
	<-r1.done
	return r1.at.Sub(r0.at), nil
}
