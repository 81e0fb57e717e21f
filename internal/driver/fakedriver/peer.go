package fakedriver

import "github.com/nugo-dev/nugo/internal/driver"

// DeviceCanAccessPeer implements driver.API: any two different fake
// devices can.
func (f *Fake) DeviceCanAccessPeer(d, peer driver.Device) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuDeviceCanAccessPeer"
	if _, err := f.enter(call, true, false); err != nil {
		return false, err
	}
	a, err := f.device(call, d)
	if err != nil {
		return false, err
	}
	b, err := f.device(call, peer)
	if err != nil {
		return false, err
	}
	return a != b, nil
}

// CtxEnablePeerAccess implements driver.API, as the driver does: the peer
// must be another device's live context, and enabling twice is
// CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED.
func (f *Fake) CtxEnablePeerAccess(peer driver.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuCtxEnablePeerAccess"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	p := f.ctxDevice(peer)
	if p < 0 || f.ctxRefs[p] == 0 {
		return driver.NewError(call, driver.ErrorInvalidContext)
	}
	if p == dev {
		return driver.NewError(call, driver.ErrorInvalidDevice)
	}
	if f.peers == nil {
		f.peers = map[[2]int]bool{}
	}
	if f.peers[[2]int{dev, p}] {
		return driver.NewError(call, driver.ErrorPeerAccessAlreadyEnabled)
	}
	f.peers[[2]int{dev, p}] = true
	return nil
}

// PeerAccess reports whether device dev's context has enabled access to
// device peer's memory (CtxEnablePeerAccess), for tests.
func (f *Fake) PeerAccess(dev, peer int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.peers[[2]int{dev, peer}]
}

// MemcpyPeerAsync implements driver.API: both contexts must be live and
// each address inside an allocation of its context's device; the copy is
// ordered after all work queued before it (with Config.Sim: it runs when
// the host next waits).
func (f *Fake) MemcpyPeerAsync(dst driver.DevicePtr, dstCtx driver.Context, src driver.DevicePtr, srcCtx driver.Context, bytes int, s driver.Stream) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuMemcpyPeerAsync"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return err
	}
	if err := f.stream(call, s); err != nil {
		return err
	}
	dd, sd := f.ctxDevice(dstCtx), f.ctxDevice(srcCtx)
	if dd < 0 || sd < 0 || f.ctxRefs[dd] == 0 || f.ctxRefs[sd] == 0 {
		return driver.NewError(call, driver.ErrorInvalidContext)
	}
	d, err := f.spanOn(call, dst, bytes, dd)
	if err != nil {
		return err
	}
	sb, err := f.spanOn(call, src, bytes, sd)
	if err != nil {
		return err
	}
	f.run(dev, func() { copy(d, sb) })
	return nil
}

// spanOn is span for memory that must belong to device dev.
func (f *Fake) spanOn(call string, p driver.DevicePtr, n, dev int) ([]byte, error) {
	b, err := f.span(call, p, n)
	if err != nil || n == 0 {
		return b, err
	}
	for base, a := range f.allocs {
		if p >= base && p < base+driver.DevicePtr(len(a.mem)) && a.dev != dev {
			return nil, invalid(call, "%#x is memory of device %d, not of the context's device %d", uint64(p), a.dev, dev)
		}
	}
	return b, nil
}
