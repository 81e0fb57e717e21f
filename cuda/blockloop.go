package cuda

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"

	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// BlockLoop runs every thread of one block of a kernel that synchronises
// its block (SyncThreads, its reducing forms, warp operations), with the
// kernel's arguments bound, as plain loops instead of goroutines meeting
// at barriers: `nugo gen` writes it by barrier fission, each stretch of the
// kernel between two barriers becoming a loop over the block's threads.
// The CPU backend calls a kernel's BlockLoop, when it has one, once per
// block in place of its threads; a BlockLoop is only ever called by one
// goroutine at a time (each worker makes its own), so it may keep scratch
// memory from block to block.
type BlockLoop func(b *Block)

// Block is the block a BlockLoop runs. It hands out the block's threads by
// linear index (x fastest) and records the thread being run, so that a
// panic is reported for the right thread.
type Block struct {
	b    *block
	n    int
	flat bool     // the block is one-dimensional: linear index = x
	tids []uint64 // packed thread index by linear index, when not flat, for the block at grid x 0
	base uint64   // the block's grid x, added to a packed thread index (see packTid)
	cur  int      // linear index of the thread being run, for panic reports
}

// newBlockOf returns the Block of a worker's block for launches with
// blocks of shape d.
func newBlockOf(b *block, d Dim3) Block {
	bl := Block{b: b, n: d.Size(), flat: d.Y == 1 && d.Z == 1}
	if !bl.flat {
		// Dividing the linear index for every thread of every region
		// would cost more than many a region's body.
		bl.tids = make([]uint64, 0, bl.n)
		for z := range d.Z {
			for y := range d.Y {
				for x := range d.X {
					bl.tids = append(bl.tids, packTid(x, y, z))
				}
			}
		}
	}
	return bl
}

// Size returns the number of threads in the block.
func (b *Block) Size() int { return b.n }

// Flat reports whether the block is one-dimensional, so that a thread's
// linear index is its ThreadIdx().X.
func (b *Block) Flat() bool { return b.flat }

// Thread returns the block's thread of linear index i (0 <= i < Size())
// and records it as the thread being run.
func (b *Block) Thread(i int) Thread {
	b.cur = i
	return b.thread(i)
}

// FlatThread is Thread for a one-dimensional block (Flat), where the
// linear index is the thread's x index: one store to record the thread,
// no test of the block's shape.
func (b *Block) FlatThread(i int) Thread {
	b.cur = i
	return Thread{b.b, b.base + uint64(i)}
}

// Lead records, as the thread being run, the first thread that has not
// exited (thread 0 if all have): block-level code between regions (uniform
// statements, the headers of loops and ifs around barriers) runs once for
// the block, and a panic there names that thread, as ptxsim does. It
// reports whether such a thread is left: when every thread has returned,
// the block has left the kernel, and the block loop returns without
// running its block-level code (a division by zero there would fail a
// launch that no thread reached it in).
func (b *Block) Lead(exited []bool) bool {
	b.cur = 0
	for i, e := range exited {
		if !e {
			b.cur = i
			return true
		}
	}
	return false
}

// X0 returns the grid x index of the block's first thread, so that in a
// one-dimensional block the thread of linear index i has Grid1() X0()+i.
func (b *Block) X0() int { return int(b.base) }

// thread returns the block's thread of linear index i.
func (b *Block) thread(i int) Thread {
	if b.flat {
		return Thread{b.b, b.base + uint64(i)}
	}
	return Thread{b.b, b.tids[i] + b.base}
}

// current returns the thread being run (the last one Thread or FlatThread
// returned), for panic reports.
func (b *Block) current() Thread { return b.thread(b.cur) }

// RegisterBlockLoop registers how to make kernel's BlockLoop: bind
// receives the launch's arguments after the Thread, each with exactly the
// type of its parameter, and returns a maker that the CPU backend calls
// once per worker goroutine for a BlockLoop of that worker's own. kernel
// must be a top-level function, as for RegisterRowLoop; a kernel has
// either a row loop or a block loop, whichever was registered last.
//
// It is called from the init functions that `nugo gen` writes. Unlike a
// row loop, a block loop holds a transformed copy of the kernel's body:
// source is the fingerprint of the kernel's declaration it was made from
// (package declhash), and a launch on the CPU backend fails with a
// *CompileError saying to run go generate if the kernel's source, as the
// binary carries it, no longer has that fingerprint. inlined names the
// functions of the kernel's package that nugo gen inlined into the block
// loop (helpers that synchronise the block); the fingerprint then covers
// their declarations too, so that editing a helper alone makes the block
// loop out of date as well.
func RegisterBlockLoop(kernel any, source string, bind func(args []any) func() BlockLoop, inlined ...string) {
	v := reflect.ValueOf(kernel)
	if kernel == nil || bind == nil || v.Kind() != reflect.Func || v.IsNil() {
		return
	}
	cpu.RegisterRows(v.Pointer(), cpu.RowBinder{Type: v.Type(), Bind: bind, Source: source, Inlined: inlined})
}

// blockLoopCurrent caches, per kernel code pointer and fingerprint, nil
// when the block loop was generated from the kernel's current source, or
// the error that says it is out of date.
var blockLoopCurrent sync.Map // blockLoopKey -> error (nil when current)

type blockLoopKey struct {
	pc     uintptr
	source string
}

// currentBlockLoop returns nil when the block loop registered for fn with
// fingerprint source was generated from the declaration of fn that the
// binary carries (or the source tree has), and otherwise a *CompileError
// saying that nugo_loops.go is out of date. A block loop holds a copy of
// the kernel's body: after an edit without go generate it would compute
// the old kernel on the CPU while the compiled backends compile the new
// one, and falling back to goroutines would hide, at a thousand times the
// cost, that the generated file is stale; the launch fails instead, as a
// stale row loop fails to compile and a stale nugo_source.go fails the
// compiled backends. Where no source can be found, no backend compiles
// another body, and the loop is used.
func currentBlockLoop(fn reflect.Value, source string, inlined []string) error {
	key := blockLoopKey{fn.Pointer(), source}
	if err, seen := blockLoopCurrent.Load(key); seen {
		e, _ := err.(error)
		return e
	}
	var err error
	if h, found := frontend.DeclHash(fn.Interface(), inlined...); found && h != source {
		pos := ""
		if f := runtime.FuncForPC(fn.Pointer()); f != nil {
			if file, line := f.FileLine(f.Entry()); file != "" {
				pos = fmt.Sprintf("%s:%d", file, line)
			}
		}
		err = &CompileError{Kernel: funcName(fn), Diagnostics: []Diagnostic{{Pos: pos, Msg: fmt.Sprintf(
			"the block loop nugo gen wrote for this kernel (in nugo_loops.go) is out of date: it was made from another version of the kernel (fingerprint %s, the kernel's is %s); run go generate in the kernel's package directory and rebuild",
			source, h)}}}
	}
	blockLoopCurrent.Store(key, err)
	return err
}

// blockLoopFor binds fn's registered BlockLoop maker to args, or returns
// nil when fn has none; as rowLoopFor. A block loop made from another
// version of the kernel is an error (see currentBlockLoop).
func blockLoopFor(fn reflect.Value, args []reflect.Value) (func() BlockLoop, error) {
	rb, ok := cpu.Rows(fn)
	bind, _ := rb.Bind.(func([]any) func() BlockLoop)
	if !ok || bind == nil || len(args)+1 != fn.Type().NumIn() {
		return nil, nil
	}
	if err := currentBlockLoop(fn, rb.Source, rb.Inlined); err != nil {
		return nil, err
	}
	return bindLoop(fn, args, bind, "block loop")
}

// BlockShared returns a block loop's shared array of n elements, zeroed:
// the array of a SharedArray call that the block loop makes once per
// block, kept in *buf from block to block (a BlockLoop runs one block at a
// time) instead of being looked up by call site.
func BlockShared[T Element](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
		return *buf
	}
	*buf = (*buf)[:n]
	clear(*buf)
	return *buf
}

// BlockShared2 is BlockShared for a SharedArray2: the rows×cols shared
// array, row-major, kept in *buf from block to block.
func BlockShared2[T Element](buf *[]T, rows, cols int) Array2[T] {
	return rowMajor2(BlockShared(buf, rows*cols), rows, cols)
}

// BlockShared3 is BlockShared for a SharedArray3: the d0×d1×d2 shared
// array, row-major, kept in *buf from block to block.
func BlockShared3[T Element](buf *[]T, d0, d1, d2 int) Array3[T] {
	return rowMajor3(BlockShared(buf, d0*d1*d2), d0, d1, d2)
}

// The loops nugo gen writes over the threads of a block of two or three
// dimensions carry the thread's x, y and z in the block beside its linear
// index, so that its position needs no unpacking: Pos gives the position
// of a linear index to start from, Step the next thread's, ThreadAt the
// thread, Grid2At and Grid3At its position in the grid.

// Pos returns the position in the block of the thread of linear index i
// (x fastest).
func (b *Block) Pos(i int) (x, y, z int) {
	d := b.b.dim
	return i % d.X, i / d.X % d.Y, i / (d.X * d.Y)
}

// Step returns the linear index and the position of the thread after the
// one of linear index i at x, y, z.
func (b *Block) Step(i, x, y, z int) (int, int, int, int) {
	if x++; x == b.b.dim.X {
		x = 0
		if y++; y == b.b.dim.Y {
			y = 0
			z++
		}
	}
	return i + 1, x, y, z
}

// ThreadAt is Thread for the thread of linear index i at x, y, z in the
// block: it records the thread as the one being run and builds it from
// its position, without the table Thread reads.
func (b *Block) ThreadAt(i, x, y, z int) Thread {
	b.cur = i
	return Thread{b.b, b.base + packTid(x, y, z)}
}

// Grid2At is Thread.Grid2 of the block's thread at x, y.
func (b *Block) Grid2At(x, y int) (int, int) { return int(b.base) + x, b.b.base.Y + y }

// Grid3At is Thread.Grid3 of the block's thread at x, y, z.
func (b *Block) Grid3At(x, y, z int) (int, int, int) {
	return int(b.base) + x, b.b.base.Y + y, b.b.base.Z + z
}

// Dim returns the shape of the block.
func (b *Block) Dim() Dim3 { return b.b.dim }
