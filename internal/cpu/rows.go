package cpu

import (
	"reflect"
	"sync"
)

// The registry of generated row loops (cuda.RegisterRowLoop): it lives
// here, below package cuda, so that tests of other packages can compare
// a kernel's generated loop with its per-thread calls.

// RowBinder is one registered row loop maker; Bind is the cuda package's
// func(args []any) cuda.RowLoop, kept as a value of that type.
type RowBinder struct {
	Type reflect.Type // the kernel's func type
	Bind any
	// Source is the fingerprint of the kernel's declaration that a block
	// loop (cuda.RegisterBlockLoop) was generated from; "" for row loops.
	Source string
	// Inlined names the functions of the kernel's package whose bodies
	// the block loop inlined; Source covers their declarations too.
	Inlined []string
}

var rows struct {
	sync.RWMutex
	m        map[uintptr]RowBinder
	disabled bool
}

// RegisterRows records b for the function whose code pointer is pc.
func RegisterRows(pc uintptr, b RowBinder) {
	rows.Lock()
	defer rows.Unlock()
	if rows.m == nil {
		rows.m = map[uintptr]RowBinder{}
	}
	rows.m[pc] = b
}

// Rows returns the binder registered for fn, if there is one, row loops
// are enabled, and it was registered for fn's type.
func Rows(fn reflect.Value) (RowBinder, bool) {
	rows.RLock()
	defer rows.RUnlock()
	b, ok := rows.m[fn.Pointer()]
	if !ok || rows.disabled || b.Type != fn.Type() {
		return RowBinder{}, false
	}
	return b, true
}

// SetRowsDisabled turns the use of registered row loops off (true) or on
// and returns the previous setting; tests use it to run kernels both ways.
func SetRowsDisabled(off bool) (was bool) {
	rows.Lock()
	defer rows.Unlock()
	was, rows.disabled = rows.disabled, off
	return was
}
