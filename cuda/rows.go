package cuda

import (
	"fmt"
	"reflect"

	"github.com/nugo-dev/nugo/internal/cpu"
)

// RowLoop calls a kernel for a row of consecutive threads of one block (x
// increasing, y and z fixed), with the kernel's arguments bound. The CPU
// backend calls a kernel's RowLoop, when it has one, instead of calling the
// kernel through a func value once per thread: in a row loop the kernel is
// a direct call, which the Go compiler inlines, so a short kernel costs
// about what the same body costs in a plain Go loop.
//
// Row loops are written by `nugo gen` (see RegisterRowLoop); a RowLoop
// follows this shape exactly:
//
//	func(r *cuda.Row) {
//		for t, n, stop := r.Begin(); n > 0; t, n = r.More() {
//			for {
//				kernel(t, a0, a1)
//				if n--; n == 0 || *stop {
//					break
//				}
//				t = r.Next(t)
//			}
//		}
//	}
//
// or, for a kernel that nugo gen found can reach no operation that makes
// the block's threads concurrent, this one, which starts with Start and
// does not check the flag:
//
//	func(r *cuda.Row) {
//		for t, n := r.Start(); n > 0; t, n = r.More() {
//			for {
//				kernel(t, a0, a1)
//				if n--; n == 0 {
//					break
//				}
//				t = r.Next(t)
//			}
//		}
//	}
//
// More runs the loop on from a row's last thread to the next row, of the
// same block or of the next block the worker runs, so that one call of the
// loop runs many blocks. A loop that returns after one row (as loops that
// nugo gen wrote before More did) is called again for the next.
type RowLoop func(r *Row)

// Row is the run of threads a RowLoop is called for. It records the thread
// being run, so that a panic is reported for the right thread, and tells
// the loop to stop after a thread that made the block's threads concurrent
// (SyncThreads, its reducing forms and the warp operations do).
type Row struct {
	t    Thread
	n    int
	stop *bool
	// unstoppable is set by Start: the loop does not read stop, so a
	// thread that would make the block concurrent fails instead (see
	// block.goConcurrent).
	unstoppable bool
	// w is the worker that runs the row, which More asks for the next;
	// ended records that More found none.
	w     *runner
	ended bool
	// flat records that the row runs several blocks at once
	// (StartGrid1), whose thread's block the worker finds on a panic.
	flat bool
}

// Begin returns the row's first thread, the number of threads in the row
// (at least 1) and the flag the loop must read after each thread: when it
// is true, the remaining threads of the block are already running on
// their own and the loop returns.
func (r *Row) Begin() (t Thread, n int, stop *bool) { return r.t, r.n, r.stop }

// Start is Begin for a loop that does not read the stop flag: the kernel
// cannot make the block's threads concurrent (nugo gen checks that it
// reaches no SyncThreads, reducing form, warp operation or SyncGrid). If
// one of its threads reaches such an operation all the same, the launch
// fails with a KernelError for that thread.
func (r *Row) Start() (t Thread, n int) {
	r.unstoppable = true
	return r.t, r.n
}

// StartGrid1 is Start for a loop whose kernel reads nothing of its Thread
// but Grid1 (nugo gen checks that the Thread is used only in t.Grid1()
// calls), so that the kernel cannot tell one block from the next. In a
// launch whose grid and blocks are one-dimensional its first row is then
// every thread of the run of consecutive blocks the worker was handed, and
// the worker's other work per block (entering it, asking for its row) is
// left out; a panic still names its block and thread.
func (r *Row) StartGrid1() (t Thread, n int) {
	r.unstoppable = true
	if r.w != nil {
		r.w.flatten()
	}
	return r.t, r.n
}

// Next returns the thread after t in the row and records it as the
// thread being run.
func (r *Row) Next(t Thread) Thread {
	t.tid++
	r.t.tid = t.tid
	return t
}

// More returns the first thread of the next row and its number of
// threads (at least 1), and records that thread as the one being run; or
// n == 0 when the loop is to return: the worker has no row left for it, or
// the block's threads became concurrent (the loop's stop flag is true).
// The next row is the block's next (y, then z), or the first row of the
// next block in the run of consecutive blocks the worker was handed.
func (r *Row) More() (t Thread, n int) {
	if *r.stop || r.w == nil {
		return Thread{}, 0
	}
	if !r.w.nextRow() {
		r.ended = true
		return Thread{}, 0
	}
	return r.t, r.n
}

// RegisterRowLoop registers how to make kernel's RowLoop: bind receives
// the launch's arguments after the Thread, each with exactly the type of
// its parameter, and returns the loop, which the CPU backend may call from
// several goroutines at once. kernel must be a top-level function (not a
// closure or a method value), because it is recognised by its code
// pointer; other func values, nil arguments and generic instantiations are
// ignored, and their launches keep the per-thread call. A later
// registration for the same kernel replaces an earlier one.
//
// It is called from the init functions that `nugo gen` writes
// (`//go:generate go tool nugo gen`): a
// stale generated file does not compile, since its loops call the kernels
// with their parameter types.
func RegisterRowLoop(kernel any, bind func(args []any) RowLoop) {
	v := reflect.ValueOf(kernel)
	if kernel == nil || bind == nil || v.Kind() != reflect.Func || v.IsNil() {
		return
	}
	cpu.RegisterRows(v.Pointer(), cpu.RowBinder{Type: v.Type(), Bind: bind})
}

// rowLoopFor binds fn's registered RowLoop to args, or returns nil when fn
// has none. args are converted to the parameter types first, so the
// generated type assertions hold for arguments that are only assignable.
func rowLoopFor(fn reflect.Value, args []reflect.Value) (RowLoop, error) {
	rb, ok := cpu.Rows(fn)
	bind, _ := rb.Bind.(func([]any) RowLoop)
	if !ok || bind == nil || len(args)+1 != fn.Type().NumIn() {
		return nil, nil
	}
	return bindLoop(fn, args, bind, "row loop")
}

// bindLoop converts args to fn's parameter types, so that the generated
// type assertions hold for arguments that are only assignable, and calls
// the registered binder with them; a binder's panic is an error naming
// what (the kind of loop).
func bindLoop[L any](fn reflect.Value, args []reflect.Value, bind func([]any) L, what string) (loop L, err error) {
	vals := make([]any, len(args))
	for i, a := range args {
		v := reflect.New(fn.Type().In(i + 1)).Elem()
		v.Set(a)
		vals[i] = v.Interface()
	}
	defer func() {
		// A generated binder only asserts types, which the conversion
		// above guarantees; a hand-written one may do more.
		if r := recover(); r != nil {
			var none L
			loop, err = none, fmt.Errorf("%s of %s: binding the arguments panicked: %v", what, fn.Type(), r)
		}
	}()
	return bind(vals), nil
}
