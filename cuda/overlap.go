package cuda

import (
	"slices"
	"unsafe"
)

// Overlapping arguments. On the CPU backend two slice arguments that share
// host memory alias: a kernel's write through one is seen through the
// other. The backends that copy host arguments to a device keep that true by
// copying memory, not arguments: host arguments that overlap are copied as
// one span, and each gets its address inside it. And since the compiler
// loads slices a kernel never writes through the non-coherent read-only
// cache (ld.global.nc, like CUDA's const __restrict__), a launch whose
// arguments overlap runs a variant compiled without it. Device arrays need
// no copy, but views of one array (DeviceArray.Slice, Reshape) overlap when
// their byte ranges in its memory do, and count the same way.

// hostSpan is a range of host memory holding one or more of a launch's host
// arguments.
type hostSpan struct {
	bytes []byte
	args  int // how many arguments lie in it
	// noIn, noOut: every argument in it is Out (no copy to the device),
	// or every one is In (no copy back).
	noIn, noOut bool
}

// spanRef places an argument in a span: its index in the spans and its
// byte offset in it.
type spanRef struct {
	span, offset int
}

// hostSpans groups the launch's non-empty host slice and array arguments
// into spans of overlapping memory. at[i] is argument i's place, with span
// -1 for arguments that are not non-empty host memory.
func hostSpans(args []boundArg) (spans []hostSpan, at []spanRef) {
	type piece struct {
		arg   int
		bytes []byte
	}
	var pieces []piece
	at = make([]spanRef, len(args))
	for i, a := range args {
		at[i] = spanRef{span: -1}
		if !a.isHost() {
			continue
		}
		if b := hostBytes(a); len(b) > 0 {
			pieces = append(pieces, piece{i, b})
		}
	}
	start := func(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
	slices.SortStableFunc(pieces, func(x, y piece) int {
		switch sx, sy := start(x.bytes), start(y.bytes); {
		case sx < sy:
			return -1
		case sx > sy:
			return 1
		}
		return 0
	})
	end := uintptr(0)
	for _, p := range pieces {
		s, e := start(p.bytes), start(p.bytes)+uintptr(len(p.bytes))
		if len(spans) == 0 || s >= end {
			spans = append(spans, hostSpan{bytes: p.bytes, noIn: true, noOut: true})
			end = e
		} else if e > end {
			// Memory that overlaps is one Go allocation, so the span may
			// grow from its first byte over the union.
			sp := &spans[len(spans)-1]
			sp.bytes = unsafe.Slice(unsafe.SliceData(sp.bytes), int(e-start(sp.bytes)))
			end = e
		}
		sp := &spans[len(spans)-1]
		sp.args++
		dir := args[p.arg].dir
		sp.noIn = sp.noIn && dir == transferOut
		sp.noOut = sp.noOut && dir == transferIn
		at[p.arg] = spanRef{span: len(spans) - 1, offset: int(s - start(sp.bytes))}
	}
	return spans, at
}

// argsOverlap reports whether two of a launch's slice or array arguments
// share memory: device arrays (an array and its views, or views of one
// array) whose byte ranges in one allocation intersect, or host memory in
// common. Empty arguments share nothing.
func argsOverlap(args []boundArg) bool {
	spans, _ := hostSpans(args)
	return argsOverlapIn(args, spans)
}

// argsOverlapIn is argsOverlap for a launch whose host spans (hostSpans)
// are already known.
func argsOverlapIn(args []boundArg, spans []hostSpan) bool {
	type devRange struct {
		m        memory
		off, len int
	}
	var buf [4]devRange
	devs := buf[:0]
	for _, a := range args {
		if a.dev == nil {
			continue
		}
		m, err := a.dev.mem()
		if err != nil {
			continue // the launch fails on it anyway
		}
		r := devRange{m, a.dev.offset(), deviceBytes(a.dev)}
		for _, o := range devs {
			if o.m == r.m && rangesOverlap(o.off, o.len, r.off, r.len) {
				return true
			}
		}
		devs = append(devs, r)
	}
	for _, s := range spans {
		if s.args > 1 {
			return true
		}
	}
	return false
}

// rangesOverlap reports whether the byte ranges [a, a+an) and [b, b+bn)
// have a byte in common.
func rangesOverlap(a, an, b, bn int) bool {
	return an > 0 && bn > 0 && a < b+bn && b < a+an
}

// deviceBytes is the size in bytes of the memory a device array argument
// covers (a strided view's span).
func deviceBytes(d deviceArg) int { return d.spanBytes() }
