// Package ptxsim interprets the PTX that nugo's compiler emits, so that
// compiled kernels can run, and be checked against the native CPU backend,
// on machines without a GPU.
//
// Parse turns PTX text into a Module: every instruction is decoded once into
// a compact form (registers resolved to indices, immediates placed in
// per-function constant slots, opcode and type folded into a small integer),
// so execution does no string work. A Module is immutable and may be launched
// many times, concurrently, over a Memory that holds global allocations.
//
// Execution model. The blocks of a grid run in parallel over worker
// goroutines; the threads of a block run one after another on their worker:
// each thread runs until it reaches a barrier (bar.sync, barrier.sync,
// bar.red) or exits, then the next one runs; when every thread that has not
// exited waits at the barrier, all of them resume. Threads that exited no
// longer count, as on sm_70 and later: bar.red.popc gives the number of
// true predicates among the threads that wait at a bar.red, .and and .or
// whether all or any of them are true. The barrier number and thread count
// operands are read but not used: every barrier is the whole block's. A thread that reaches a warp-level instruction
// (shfl.sync, vote.sync, match.sync, bar.warp.sync) parks; when every live
// lane of its member mask is parked at one, the results are computed among
// the mask's lanes and they resume, so lanes with different masks (each
// quarter of a warp with its own) complete independently. Lanes outside the
// mask, past the end of the block or exited are absent: a shuffle from one
// gives the reader's own value, a vote does not count it, and match.sync
// leaves it out of its masks (match.all compares the live lanes only). A
// lane whose member mask lacks its own bit faults. activemask waits for no
// lane: it names the lanes on the caller's path, which modules that use it
// track per warp (diverge.go): lanes part at a conditional branch and join
// at its immediate post-dominator, and an activemask completes once no
// lane of the warp is still on its way to the same point.
// match.sync compares the bits of its .b32 or .b64 operand. The lane mask
// registers (%lanemask_eq, _lt, _le, _gt, _ge) depend on %laneid alone. A warp whose threads wait
// partly at a warp-level instruction and partly at bar.sync is a deadlock
// and fails the launch.
//
// A cooperative launch (Config.Cooperative) runs every block at once, each
// on a goroutine of its own, so that blocks can wait for each other: nugo's
// grid barrier spins on a counter in global memory, and nanosleep yields
// the spinning block's goroutine to the others. A thread that keeps
// spinning after a block of the grid has finished is reported as a
// deadlock, naming the first block that finished: "block (1,0,0) returned
// before t.SyncGrid" (a finished block has passed every grid barrier, so
// one still awaited never completes).
//
// Semantic choices, where PTX leaves freedom:
//   - Integer division by zero: div.u gives all ones; div.s gives -1 for a
//     non-negative dividend and 1 for a negative one; rem gives the dividend.
//     (PTX calls the result unspecified; these are what the hardware's
//     unsigned-division-with-sign-fixup produces.)
//   - Float min/max return the other operand when one is NaN and order -0
//     below +0.
//   - ex2/lg2/sin/cos/tanh/rsqrt/rcp/sqrt/div .approx are computed in float64
//     and rounded to the destination type: they are more accurate than the
//     hardware, never less; kernels must only rely on the documented bounds.
//   - membar and fence are no-ops: threads of a block run one at a time, and
//     atomics on global memory are real host atomics (sync/atomic), which are
//     sequentially consistent; plain loads and stores of different blocks to
//     the same address are racy exactly as they are on a GPU. With more than
//     one worker such a kernel is also a data race in the host process (the
//     race detector reports it); Launch.Workers = 1 runs blocks in turn.
//     ld and st with .volatile, .relaxed, .acquire or .release are host
//     atomic loads and stores (when 2, 4 or 8 bytes and aligned; 2 bytes
//     through the aligned 32-bit word that holds them), so the
//     intended races of such accesses with atomics (the first read of a
//     compare-and-swap loop) are not host data races.
//   - Float-to-integer cvt clamps to the destination range and maps NaN to 0,
//     as PTX specifies for sm_20 and later; cvt/arithmetic .sat maps NaN and
//     -0 to +0.
//   - atom.add.f32 flushes subnormal inputs and results to zero, as the
//     hardware's global-memory float atomics do; atom.add.f64 does not,
//     nor atom.add.noftz.f16 (sm_70), whose sum is add.rn.f16's. The 16-bit
//     atomics (that and atom.cas.b16) compare-and-swap the aligned 32-bit
//     host word that holds their 2 bytes.
//   - The directed rounding modes (.rz .rm .rp) are exact: float32 results
//     are rounded from float64 with the sign of the exact residual, float64
//     results through math/big (slow, but nugo emits them only for
//     conversions).
//   - vprintf formats C printf (%d %i %u %x %X %o %c %s %p %e %f %g %a and
//     the length modifiers h hh l ll z j t, flags, width, precision, '*')
//     with C's output, including inf/nan spellings, and writes each call
//     in one Write to the launch's io.Writer.
//   - nanosleep takes no time: PTX allows any sleep from 0 to twice the
//     time asked. In a cooperative launch it yields the block's goroutine
//     (see above); otherwise it does nothing, since the interpreter runs
//     one block at a time and has no one to give the time to.
//
// Half precision: .f16 values live in .b16 registers; add, sub, mul and
// fma .rn.f16, setp.{eq,ne,lt,le,gt,ge}.f16 and cvt between .f16 and
// .f32/.f64 run internal/half's code, the CPU backend's, so they match
// cuda.Float16 bit for bit (NaN results are the canonical 0x7FFF).
//
// Memory: state spaces global (host buffers registered in a Memory at
// device address ranges), shared (per block), local (per thread: a stack
// that holds .local variables and the .param frames of .func calls), const
// and param. Generic addresses of shared, local and const memory live in
// fixed windows at and above 1<<47; cvta adds or removes the window base.
//
// Not supported (a parse error names the instruction and line): warp-level
// instructions other than shfl.sync, vote.sync, match.sync, activemask and
// bar.warp.sync (redux, shfl and vote without .sync), textures and
// surfaces, other .f16 instructions, .f16x2 and .bf16, carry arithmetic (.cc, addc), brx.idx and
// indirect calls, bar.arrive, vector registers (.reg .v2), and
// module-scope .local variables.
//
// Errors: a parse error names the line and the instruction; a run-time fault
// (an access outside any registered allocation, a misaligned atomic, trap,
// too many steps) is an *ExecError naming the kernel, the instruction, its
// PTX line, the block and thread, and the address, with a Kind that tells
// which CUDA error a GPU would report; when the PTX has .file and .loc
// directives (nugo's LineInfo option) it also names the source line of the
// faulting instruction (ExecError.Source). Faults never panic out of
// the API.
package ptxsim
