package golaunch

import (
	"testing"
	"unsafe"
)

func TestMergeSpans(t *testing.T) {
	buf := make([]byte, 100)
	at := func(off int) unsafe.Pointer { return unsafe.Pointer(&buf[off]) }
	got := mergeSpans([]span{{at(50), 10}, {at(0), 20}, {at(10), 5}, {at(55), 30}, {at(90), 5}})
	want := []struct{ off, n int }{{0, 20}, {50, 35}, {90, 5}}
	if len(got) != len(want) {
		t.Fatalf("merged into %d spans, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].p != at(w.off) || int(got[i].n) != w.n {
			t.Errorf("span %d = (+%d, %d), want (+%d, %d)", i, uintptr(got[i].p)-uintptr(at(0)), got[i].n, w.off, w.n)
		}
	}
}
