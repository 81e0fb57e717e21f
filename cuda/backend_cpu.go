package cuda

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nugo-dev/nugo/internal/cpu"
)

func init() {
	registerBackend(CPU, func() (backend, error) { return newCPUBackend(), nil })
}

func newCPUBackend() *hostBackend {
	h := newHostBackend(nativeExecutor{})
	h.spawn = newCPUBackend
	return h
}

// nativeExecutor runs kernels as compiled Go: the grid's blocks are spread
// over all cores; a block's threads are called one after another until one
// of them calls SyncThreads, and from then on run as coroutines of the
// worker that meet at a barrier (coro.go).
type nativeExecutor struct{}

func (nativeExecutor) kind() Backend { return CPU }

// hostLaunch is what every block of one launch shares.
type hostLaunch struct {
	kernel *Kernel
	cfg    LaunchConfig
	inv    *cpu.Invoker[Thread]
	// rows, when the kernel has a generated row loop, runs rows of threads
	// in place of inv.CallRow; inv still runs concurrent threads.
	rows RowLoop
	// blocks, when the kernel has a generated block loop (barrier
	// fission), makes each worker's BlockLoop, which runs whole blocks in
	// place of rows and goroutines.
	blocks func() BlockLoop
	// goexit is the error of the first block whose thread called
	// runtime.Goexit on its worker (cpu.Run then returns ErrGoexit).
	goexit atomic.Pointer[KernelError]
	// grid, in a cooperative launch, is the barrier of SyncGrid: one
	// party per block, every block running at once. It is broken when a
	// block's last thread returns (see gridExit), and exited is then the
	// first such block.
	grid   *cpu.Barrier
	exited atomic.Pointer[Dim3]
	// phases, in a cooperative launch of a kernel with a block loop,
	// are its blocks run phase by phase in place of grid (gridloop.go).
	phases *gridPhases
	// pools are the workers' coroutines, stopped when the launch ends.
	poolsMu sync.Mutex
	pools   []*coPool
}

func (nativeExecutor) execute(k *Kernel, cfg LaunchConfig, args []reflect.Value, bound []boundArg) error {
	// A kernel that reaches a recursive function runs as its
	// depth-counting copy, on the goroutine path too; without one (no
	// nugo gen), run as plain Go its recursion could overflow the stack,
	// so it runs compiled, on ptxsim, whose calls count their depth.
	fn, bounded := boundedKernel(k.fn)
	if !bounded {
		fn = k.fn
		if err := checkRecursion(k.fn); err != nil {
			return runRecursiveOnPTXSim(k, cfg, args, bound, err)
		}
	}
	inv, err := cpu.NewInvoker[Thread](fn, args)
	if err != nil {
		return err
	}
	rows, err := rowLoopFor(k.fn, args)
	if err != nil {
		return err
	}
	blocks, err := blockLoopFor(k.fn, args)
	if err != nil {
		return err
	}
	l := &hostLaunch{kernel: k, cfg: cfg, inv: inv, rows: rows, blocks: blocks}
	defer l.stopPools()
	return l.goexitError(l.run())
}

// run runs the launch's blocks: a cooperative launch of a kernel with a
// block loop phase by phase (runPhases), any other on the worker pool.
func (l *hostLaunch) run() error {
	cfg := l.cfg
	if cfg.Cooperative && l.blocks != nil {
		return l.runPhases()
	}
	workers := 0
	if cfg.Cooperative {
		// Every block at once, each on a worker of its own, so that all
		// can meet at the grid's barrier.
		workers = cfg.Grid.Size()
		l.grid = cpu.NewBarrier(workers)
	}
	return cpu.RunSpans(cfg.Grid.Size(), workers, func() func(*cpu.Span) error {
		r := &runner{}
		r.init(l)
		return r.runSpan
	})
}

// goexitError returns, for a launch ended by a thread's runtime.Goexit
// (cpu.ErrGoexit), that thread's KernelError; err otherwise.
func (l *hostLaunch) goexitError(err error) error {
	if errors.Is(err, cpu.ErrGoexit) {
		if ke := l.goexit.Load(); ke != nil {
			return ke
		}
	}
	return err
}

// init makes r a worker's runner of launch l: its block, and for a kernel
// with a block loop, that loop and its Block.
func (r *runner) init(l *hostLaunch) {
	r.block = newBlock(l)
	r.block.row = &r.row
	r.row.w = r
	if l.blocks != nil {
		r.loop = l.blocks()
		r.blk = newBlockOf(r.block, l.cfg.Block)
	}
}

// runRecursiveOnPTXSim runs on ptxsim a kernel of the cpu backend that
// reaches a recursive function and has no depth-counting copy (recursion
// says which): the compiled calls count their depth, so a runaway
// recursion fails the launch with ErrCallDepth's KernelError instead of
// ending the process. The arguments are host memory on both backends. A
// kernel the compiler cannot take is refused, with both reasons.
func runRecursiveOnPTXSim(k *Kernel, cfg LaunchConfig, args []reflect.Value, bound []boundArg, recursion error) error {
	sim := ptxsimExecutor{}
	if _, err := sim.compile(k, bound); err != nil {
		return fmt.Errorf("%w; it cannot run on ptxsim either (which bounds the depth): %w", recursion, err)
	}
	return sim.execute(k, cfg, args, bound)
}

// goexitMsg is the KernelError message for a thread that called
// runtime.Goexit, which ends a goroutine, not a GPU thread.
const goexitMsg = "kernel thread called runtime.Goexit"

// runner is one worker's block, with the row of threads it is calling
// while the block is not concurrent (row.t is the thread being called),
// or, for a kernel with a block loop, that loop and its Block.
type runner struct {
	*block
	row  Row
	loop BlockLoop
	blk  Block
	next int // the block after the last one run, whose index is b.idx's next
	// span is the run of blocks the worker is running; y and z are the
	// row of the block that row is (see Row.More).
	span *cpu.Span
	y, z int
}

// current returns the thread being run, for error reports.
func (r *runner) current() Thread {
	if r.loop != nil {
		return r.blk.current()
	}
	return r.row.t
}

func newBlock(l *hostLaunch) *block {
	g, d := l.cfg.Grid, l.cfg.Block
	b := &block{
		dim:    d,
		grid:   g,
		size:   Dim3{g.X * d.X, g.Y * d.Y, g.Z * d.Z},
		launch: l,
		shared: map[uintptr]any{},
	}
	if l.blocks == nil {
		b.newCoroutines()
	} // else made when needed, by goConcurrent: block loops have no barrier of their own
	if l.cfg.SharedMem > 0 {
		b.dynamic = make([]uint64, (l.cfg.SharedMem+7)/8)
	}
	return b
}

// newCoroutines gives the block its coroutine pool and the barrier of its
// threads, which the goroutine path needs (coro.go).
func (b *block) newCoroutines() {
	b.co = &coPool{block: b}
	b.barrier = cpu.NewYieldBarrier(0, b.co.wait)
	l := b.launch
	l.poolsMu.Lock()
	l.pools = append(l.pools, b.co)
	l.poolsMu.Unlock()
}

// runSpan runs the blocks of span and returns the first failure of one of
// their threads. A generated row loop runs on from one row to the next,
// and from a block's last row to the next block's first (Row.More); block
// loops and the invoker run a block at a time.
func (r *runner) runSpan(span *cpu.Span) error {
	r.span = span
	if r.loop != nil || r.launch.rows == nil {
		return span.Each(r.run)
	}
	for span.Cur = span.Lo; span.Cur < span.Hi; {
		r.enter(span.Cur)
		r.y, r.z = 0, 0
		r.row = Row{t: Thread{r.block, packTid(r.base.X, 0, 0)}, n: r.dim.X, stop: &r.concurrent, w: r}
		if err := r.runRows(); err != nil {
			return err
		}
		// The loop ended at the span's end, or at a block that became
		// concurrent and has run to its end: go on after it.
		if span.Cur++; span.Stopped.Load() {
			return nil
		}
	}
	return nil
}

// enter makes the runner's block block number bi (x fastest), with its
// shared memory zeroed.
func (r *runner) enter(bi int) {
	b := r.block
	g, d := b.grid, b.dim
	if bi == r.next && bi > 0 {
		// The block after the last one (cpu.Run hands out runs of
		// consecutive blocks): step the index instead of dividing.
		if b.idx.X++; b.idx.X == g.X {
			b.idx.X = 0
			if b.idx.Y++; b.idx.Y == g.Y {
				b.idx.Y = 0
				b.idx.Z++
			}
		}
	} else {
		b.idx = Dim3{bi % g.X, bi / g.X % g.Y, bi / (g.X * g.Y)}
	}
	r.next = bi + 1
	b.base = Dim3{b.idx.X * d.X, b.idx.Y * d.Y, b.idx.Z * d.Z}
	if len(b.shared) > 0 {
		clear(b.shared)
	}
	clear(b.dynamic)
	b.concurrent, b.err = false, nil
}

// nextRow makes r.row the row after it: the next y, then z, of the
// block, or the first row of the span's next block. It returns false,
// leaving the row as it is, when the block has no row left and it is the
// span's last (or the launch is stopping, or the block failed).
func (r *runner) nextRow() bool {
	b := r.block
	if r.y++; r.y == b.dim.Y {
		r.y = 0
		if r.z++; r.z == b.dim.Z {
			r.y, r.z = b.dim.Y-1, b.dim.Z-1
			b.gridExit() // every thread returned without SyncGrid
			s := r.span
			if s.Cur+1 >= s.Hi || b.err != nil || s.Stopped.Load() {
				return false
			}
			s.Cur++
			r.enter(s.Cur)
			r.y, r.z = 0, 0
		}
	}
	r.row.t = Thread{b, packTid(b.base.X, r.y, r.z)}
	r.row.n = b.dim.X
	return true
}

// flatten makes the row, the first of the span's current block, every
// thread of the span's blocks from that one on, when the grid and the
// blocks are one-dimensional (Row.StartGrid1), and makes the worker's
// block the span's last, after which More finds no row. A cooperative
// launch, whose blocks each meet the grid's barrier, keeps its rows.
func (r *runner) flatten() {
	b, s := r.block, r.span
	if b.dim.Y != 1 || b.dim.Z != 1 || b.grid.Y != 1 || b.grid.Z != 1 || b.launch.grid != nil || s.Hi-s.Cur < 2 {
		return
	}
	r.row.n = b.dim.X * (s.Hi - s.Cur)
	r.row.flat = true
	s.Cur = s.Hi - 1
	r.enter(s.Cur)
}

// placeFlat, after a panic in a flat row (flatten), makes the worker's
// block the one of the thread being run, so that the error names it.
func (r *runner) placeFlat() {
	if !r.row.flat {
		return
	}
	b := r.block
	bi := r.row.t.Grid1() / b.dim.X
	b.idx, b.base = Dim3{bi, 0, 0}, Dim3{bi * b.dim.X, 0, 0}
	r.next, r.span.Cur = bi+1, bi
}

// runRows runs rows with the generated row loop from r.row on, until the
// loop returns at the span's end or at a block that became concurrent,
// which it then runs to its end; it returns the block's failure.
func (r *runner) runRows() error {
	b := r.block
	rows := b.launch.rows
	func() {
		returned := false
		defer func() {
			if e := recover(); e != nil || !returned {
				r.placeFlat()
				b.threadEnded(r.current().ThreadIdx(), e)
			}
		}()
		for {
			r.row.ended = false
			rows(&r.row)
			if b.concurrent {
				returned = true
				b.leave(r.row.t)
				return
			}
			// A loop that does not call More returns after each row.
			if r.row.ended || !r.nextRow() {
				returned = true
				return
			}
		}
	}()
	if b.concurrent {
		b.co.drain()
	}
	return b.err
}

// run runs block number bi (x fastest) and returns the first failure of
// one of its threads.
func (r *runner) run(bi int) error {
	r.enter(bi)
	b := r.block
	d := b.dim

	inv := b.launch.inv
	func() {
		returned := false
		defer func() {
			if e := recover(); e != nil || !returned {
				b.threadEnded(r.current().ThreadIdx(), e)
			}
		}()

		if r.loop != nil {
			// The whole block, barriers included, as loops.
			r.blk.base = uint64(b.base.X)
			r.blk.cur = 0
			r.loop(&r.blk)
			returned = true
			b.gridExit()
			return
		}
		// Each row of threads (x from 0 to d.X-1) is one loop of the
		// invoker's (runRows runs generated row loops); it stops after a
		// thread that called SyncThreads.
		for z := range d.Z {
			for y := range d.Y {
				r.row = Row{t: Thread{b, packTid(b.base.X, y, z)}, n: d.X, stop: &b.concurrent}
				inv.CallRow(&r.row.t, d.X, &b.concurrent)
				if b.concurrent {
					returned = true
					b.leave(r.row.t)
					return
				}
			}
		}
		returned = true
		b.gridExit() // every thread returned without SyncGrid
	}()
	if b.concurrent {
		b.co.drain()
	}
	return b.err
}

// threadEnded fails the block for its thread tid, which ended early:
// with the panic value e, or, for a nil e, by runtime.Goexit, after which
// the worker ends (a coroutine passes it on to the worker); cpu.Run
// reports that, and the launch returns this error.
func (b *block) threadEnded(tid Dim3, e any) {
	if e != nil {
		b.fail(tid, e)
		return
	}
	b.fail(tid, goexitMsg)
	if ke, ok := b.err.(*KernelError); ok {
		b.launch.goexit.CompareAndSwap(nil, ke)
	}
}

// stopPools ends the coroutines of the launch's workers.
func (l *hostLaunch) stopPools() {
	l.poolsMu.Lock()
	defer l.poolsMu.Unlock()
	for _, p := range l.pools {
		p.stopAll()
	}
	l.pools = nil
}

// goConcurrent is called by the first thread t that reaches SyncThreads.
// The threads before t have already returned, which a GPU could also have
// let happen; t goes on on the worker, and the threads after t become the
// worker's coroutines, which start when t first waits.
func (b *block) goConcurrent(t Thread) {
	if b.row != nil && b.row.unstoppable {
		// The row loop would go on with the next thread, which runs
		// concurrently from now on: fail this thread instead.
		panic(errUnstoppableRow)
	}
	if b.co == nil {
		b.newCoroutines()
	}
	first, total := t.linear()+1, b.dim.Size()
	b.barrier.Reset(total - first + 1)
	b.live.Store(int32(total - first + 1))
	nw := (total + WarpSize - 1) / WarpSize
	if len(b.warps) < nw {
		b.warps = make([]warp, nw)
	}
	for w := range b.warps[:nw] {
		// The live lanes are those from the first thread still running
		// to the block's end.
		lo, hi := max(w*WarpSize, first-1)-w*WarpSize, min(total, (w+1)*WarpSize)-w*WarpSize
		var live uint32
		for l := lo; l < hi; l++ {
			live |= 1 << l
		}
		b.warps[w].reset(live, b.co.wait)
	}
	b.concurrent = true
	b.co.start(b, first, total)
}

// errUnstoppableRow is the panic of a thread that makes its block
// concurrent in a row loop that cannot stop for it (Row.Start).
var errUnstoppableRow = errors.New("the kernel reached a block or warp synchronisation that `nugo gen` did not see " +
	"(its row loop cannot stop for it: a Thread passed to code of another package, or in an interface?); " +
	"regenerate with nugo gen, or report a bug")

// leave removes thread t, which has returned, from the block's barrier and
// its warp's.
func (b *block) leave(t Thread) {
	b.barrier.Leave()
	b.warps[t.linear()/WarpSize].leave(t.linear() % WarpSize)
	if b.launch.grid != nil && b.live.Add(-1) == 0 {
		b.gridExit() // the block's last thread
	}
}

// gridExit, in a cooperative launch, records that every thread of the
// block has returned and breaks the grid's barrier. A block returns only
// after every grid barrier it reaches, each of which needed every block;
// so a block that waits at the grid's barrier after another has returned
// waits at one that the returned block never reached, and on a GPU would
// wait forever: SyncGrid reports it (GridExitMsg) instead. Blocks that
// return after the last SyncGrid break a barrier nobody waits at again.
func (b *block) gridExit() {
	l := b.launch
	if l.grid == nil && l.phases == nil {
		return
	}
	idx := b.idx
	l.exited.CompareAndSwap(nil, &idx)
	if l.grid != nil {
		l.grid.Break()
	}
}

// runThread runs thread t of a concurrent block, on a coroutine.
func (b *block) runThread(t Thread) {
	returned := false
	defer func() {
		if r := recover(); r != nil || !returned {
			b.threadEnded(t.ThreadIdx(), r)
			return
		}
		b.leave(t)
	}()
	b.launch.inv.Call(t)
	returned = true
}

// fail records a thread's panic as the block's error and stops the block.
func (b *block) fail(tid Dim3, r any) {
	if r == errBlockAborted {
		return
	}
	e := &KernelError{
		Kernel: b.launch.kernel.name,
		Block:  b.idx,
		Thread: tid,
		Msg:    strings.TrimPrefix(fmt.Sprint(r), "runtime error: "),
		Pos:    b.launch.absPos(panicSite()),
	}
	b.errMu.Lock()
	if b.err == nil {
		b.err = e
	}
	b.errMu.Unlock()
	b.abort()
	if g := b.launch.grid; g != nil {
		g.Break() // the other blocks stop at their next SyncGrid
	}
}

// absPos makes a position whose file name is relative absolute. Block
// loops (nugo gen's barrier fission) carry //line directives that name the
// kernel's files relative to its package's directory, so that the
// generated file is the same on every machine; that directory is the
// kernel function's own.
func (l *hostLaunch) absPos(pos string) string {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 || filepath.IsAbs(pos[:i]) {
		return pos
	}
	fn := runtime.FuncForPC(l.kernel.fn.Pointer())
	if fn == nil {
		return pos
	}
	kfile, _ := fn.FileLine(fn.Entry())
	if !filepath.IsAbs(kfile) {
		return pos
	}
	return filepath.Join(filepath.Dir(kfile), pos)
}

// panicSite finds the source position of the panic being recovered (or of
// the runtime.Goexit call being unwound): the first frame below
// runtime.gopanic (runtime.Goexit) that is not in the runtime nor in this
// package's files (the array views' methods and constructors, the warp
// operations), which panic for their caller.
func panicSite() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	seenPanic := false
	for {
		f, more := frames.Next()
		if seenPanic && !strings.HasPrefix(f.Function, "runtime.") && !inArrayAPI(f.Function) && !inRuntimeFile(f.File) {
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		if f.Function == "runtime.gopanic" || f.Function == "runtime.Goexit" {
			seenPanic = true
		}
		if !more {
			return ""
		}
	}
}

// cudaDir is the directory of this package's source files, as frames
// name them.
var cudaDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}()

// inRuntimeFile reports whether a frame's file is one of this package's
// own (not a test's): a warp operation's mask check (Thread.warpOp, the
// block loops' BlockShuffle..., BlockBranchCheck) or another API panics
// for the kernel's line that called it, which ptxsim names too.
func inRuntimeFile(file string) bool {
	return filepath.Dir(file) == cudaDir && !strings.HasSuffix(file, "_test.go")
}

// inArrayAPI reports whether a function, as the runtime names it, is one
// of Array2's or Array3's methods, MustView2, MustView3, Thread.SyncGrid
// or a block loop's Block.SyncGrid, which panic for their caller.
func inArrayAPI(fn string) bool {
	const pkg = "github.com/nugo-dev/nugo/cuda."
	rest, ok := strings.CutPrefix(fn, pkg)
	if !ok {
		return false
	}
	for _, p := range []string{"Array2[", "Array3[", "MustView2[", "MustView3[", "Thread.SyncGrid", "(*Block).SyncGrid"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}
