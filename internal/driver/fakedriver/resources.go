package fakedriver

import (
	"strconv"
	"strings"

	"github.com/nugo-dev/nugo/internal/driver"
)

// The resources the fake reports for a kernel through cuFuncGetAttribute,
// estimated from its PTX without an assembler, in both modes:
//
//   - FuncNumRegs: ptxas gives each thread the physical registers its
//     live values need at once, not one per PTX virtual register. The fake
//     counts the 32-bit register slots the .entry's .reg declarations name
//     (a 64-bit register takes two, a predicate none) and takes an eighth
//     of them — nugo's PTX names a fresh register for every value, most
//     dead long before the last; an eighth keeps every kernel of nugo's
//     corpus, debug checks included, within the blocks it is launched with
//     — at least minRegs and at most maxRegs, the architectural limit.
//   - FuncLocalSizeBytes: the .local arrays the .entry declares.
//   - FuncSharedSizeBytes: the module's static .shared arrays (with
//     Config.Sim, what the interpreter lays out), and
//     FuncMaxDynamicSharedSize the 48 KiB a kernel may use without opting in,
//     less that.
//   - FuncMaxThreadsPerBlock: what the registers allow on the kernel's
//     device, as on real hardware: registers are allocated per warp in
//     units of 8 per thread, so a block holds
//     MaxRegistersPerBlock / (32 · NumRegs rounded up to 8) warps, at most
//     the device's MaxThreadsPerBlock threads. 16 registers allow 1024
//     threads, 72 allow 896, 255 allow 256. An entry's .maxnreg caps the
//     count, as ptxas honours it (raised to minRegs, as ptxas raises it to
//     its architecture's minimum).
//
// SetFuncAttr overrides any of them by kernel name; a FuncNumRegs set there
// changes the derived FuncMaxThreadsPerBlock too.

// Register estimate bounds: ptxas never gives a kernel fewer than minRegs
// in practice, and a thread can address at most maxRegs.
const (
	minRegs = 16
	maxRegs = 255
)

var (
	// regDeclRE matches a .reg declaration: its type's letters, its width
	// in bits (none for .pred) and the names it declares.
	regDeclRE = lazyRE(`\.reg\s+\.([a-z]+)(\d*)(?:x(\d+))?\s+([^;]+);`)
	// arrayDeclRE matches a .local or .shared array of fixed size.
	arrayDeclRE = lazyRE(`\.(local|shared)\s+(?:\.align\s+\d+\s+)?\.[bsuf](8|16|32|64)\s+[\w$%]+\s*\[(\d+)\]`)
	// maxnregRE matches an entry's .maxnreg directive, before its body.
	maxnregRE = lazyRE(`\)\s*(?:\.\w+\s+[\d, ]+\s*)*\.maxnreg\s+(\d+)`)
	// funcStartRE matches the start of the next function after an .entry.
	funcStartRE = lazyRE(`(?m)^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)?\.(?:entry|func)\b`)
)

// entryBody is the text of .entry name's declaration and body, up to the
// next function, or "" when ptx does not declare it.
func entryBody(ptx, name string) string {
	i := strings.Index(ptx, ".entry "+name+"(")
	if i < 0 {
		return ""
	}
	body := ptx[i:]
	if next := funcStartRE().FindStringIndex(body[len(".entry "):]); next != nil {
		body = body[:len(".entry ")+next[0]]
	}
	return body
}

// regSlots counts the 32-bit register slots the .reg declarations in text
// name: "%r<12>" declares twelve registers, "%a, %b" two.
func regSlots(text string) int {
	slots := 0
	for _, m := range regDeclRE().FindAllStringSubmatch(text, -1) {
		if m[1] == "pred" {
			continue
		}
		bits, _ := strconv.Atoi(m[2])
		if lanes, _ := strconv.Atoi(m[3]); lanes > 1 {
			bits *= lanes // .f16x2 and the like
		}
		per := max((bits+31)/32, 1)
		n := 0
		for _, name := range strings.Split(m[4], ",") {
			name = strings.TrimSpace(name)
			if lt := strings.IndexByte(name, '<'); lt >= 0 && strings.HasSuffix(name, ">") {
				c, _ := strconv.Atoi(name[lt+1 : len(name)-1])
				n += c
			} else if name != "" {
				n++
			}
		}
		slots += n * per
	}
	return slots
}

// arrayBytes sums the sizes of the fixed-size arrays of space ("local" or
// "shared") that text declares.
func arrayBytes(text, space string) int {
	total := 0
	for _, m := range arrayDeclRE().FindAllStringSubmatch(text, -1) {
		if m[1] != space {
			continue
		}
		bits, _ := strconv.Atoi(m[2])
		n, _ := strconv.Atoi(m[3])
		total += n * bits / 8
	}
	return total
}

// estimateRegs is the register count the fake reports for a kernel whose
// .reg declarations name slots 32-bit registers.
func estimateRegs(slots int) int {
	return min(max((slots+7)/8, minRegs), maxRegs)
}

// entryResources is what the fake reports for .entry name of ptx (see
// above); static is the module's static shared memory.
func entryResources(ptx, name string, static int) map[driver.FunctionAttribute]int {
	body := entryBody(ptx, name)
	regs := estimateRegs(regSlots(body))
	if head, _, ok := strings.Cut(body, "{"); ok {
		if m := maxnregRE().FindStringSubmatch(head); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				regs = min(regs, max(n, minRegs))
			}
		}
	}
	return map[driver.FunctionAttribute]int{
		driver.FuncNumRegs:              regs,
		driver.FuncLocalSizeBytes:       arrayBytes(body, "local"),
		driver.FuncSharedSizeBytes:      static,
		driver.FuncMaxDynamicSharedSize: max(defaultDynamicShared-static, 0),
	}
}

// threadsForRegs is the most threads a block of a kernel using regs
// registers per thread may have on a device with regsPerBlock registers per
// block and at most maxThreads threads per block.
func threadsForRegs(regs, regsPerBlock, maxThreads int) int {
	perThread := (max(regs, 1) + 7) &^ 7
	warps := regsPerBlock / (32 * perThread)
	return min(warps*32, maxThreads)
}

// residentBlocks is how many blocks of threads threads (rounded up to
// whole warps), each using regs registers per thread and shared bytes of
// shared memory, one multiprocessor with attrs holds: bounded by its
// threads, its registers (allocated per warp in units of 8 per thread),
// its shared memory and 32 blocks.
func residentBlocks(attrs map[driver.DeviceAttribute]int, regs, shared, threads int) int {
	b := (threads + 31) &^ 31
	perThread := (max(regs, 1) + 7) &^ 7
	blocks := min(attrs[driver.AttrMaxThreadsPerMultiprocessor]/b, 32)
	if r := attrs[driver.AttrMaxRegistersPerSM]; r > 0 {
		blocks = min(blocks, r/(perThread*b))
	}
	if s := attrs[driver.AttrMaxSharedMemoryPerSM]; s > 0 && shared > 0 {
		blocks = min(blocks, s/shared)
	}
	return blocks
}

// OccupancyMaxActiveBlocksPerMultiprocessor implements driver.API with the
// model of OccupancyMaxPotentialBlockSize for one block size: 0 when the
// block has more threads than the kernel allows or its shared memory does
// not fit in a block.
func (f *Fake) OccupancyMaxActiveBlocksPerMultiprocessor(fn driver.Function, blockSize, dynamicSMem int) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuOccupancyMaxActiveBlocksPerMultiprocessor"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return 0, err
	}
	k, ok := f.funcs[fn]
	if !ok {
		return 0, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	if dynamicSMem < 0 || blockSize <= 0 {
		return 0, invalid(call, "block size %d, dynamic shared memory %d", blockSize, dynamicSMem)
	}
	return f.activeBlocks(dev, k, blockSize, dynamicSMem), nil
}

// activeBlocks is OccupancyMaxActiveBlocksPerMultiprocessor's answer for
// kernel k on device dev; called with f.mu held.
func (f *Fake) activeBlocks(dev int, k *function, blockSize, dynamicSMem int) int {
	attrs := f.cfg.Devices[dev].Attrs
	maxT, _ := f.funcAttr(k, driver.FuncMaxThreadsPerBlock)
	regs, _ := f.funcAttr(k, driver.FuncNumRegs)
	static, _ := f.funcAttr(k, driver.FuncSharedSizeBytes)
	shared := static + dynamicSMem
	if blockSize > maxT || shared > attrs[driver.AttrMaxSharedMemoryPerBlockOptin] && shared > attrs[driver.AttrMaxSharedMemoryPerBlock] {
		return 0
	}
	return residentBlocks(attrs, regs, shared, blockSize)
}

// OccupancyMaxPotentialBlockSize implements driver.API with the occupancy
// calculator's model: for each block size (a multiple of the warp size, up
// to the kernel's limit and blockSizeLimit), the blocks one multiprocessor
// holds are bounded by its threads, its registers (allocated per warp in
// units of 8 per thread), its shared memory (static plus dynamicSMem per
// block) and 32 blocks; the size with the most resident threads wins, the
// larger on a tie, and the minimum grid is that many blocks per
// multiprocessor times the multiprocessors.
func (f *Fake) OccupancyMaxPotentialBlockSize(fn driver.Function, dynamicSMem, blockSizeLimit int) (minGridSize, blockSize int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	const call = "cuOccupancyMaxPotentialBlockSize"
	dev, err := f.enter(call, true, true)
	if err != nil {
		return 0, 0, err
	}
	k, ok := f.funcs[fn]
	if !ok {
		return 0, 0, driver.NewError(call, driver.ErrorInvalidHandle)
	}
	if dynamicSMem < 0 || blockSizeLimit < 0 {
		return 0, 0, invalid(call, "dynamic shared memory %d, block size limit %d", dynamicSMem, blockSizeLimit)
	}
	attrs := f.cfg.Devices[dev].Attrs
	maxT, _ := f.funcAttr(k, driver.FuncMaxThreadsPerBlock)
	if blockSizeLimit > 0 {
		maxT = min(maxT, blockSizeLimit)
	}
	regs, _ := f.funcAttr(k, driver.FuncNumRegs)
	static, _ := f.funcAttr(k, driver.FuncSharedSizeBytes)
	shared := static + dynamicSMem
	if shared > attrs[driver.AttrMaxSharedMemoryPerBlockOptin] && shared > attrs[driver.AttrMaxSharedMemoryPerBlock] {
		return 0, 0, nil
	}
	bestThreads, bestBlocks := 0, 0
	for b := maxT &^ 31; b >= 32; b -= 32 {
		blocks := residentBlocks(attrs, regs, shared, b)
		if blocks*b > bestThreads {
			bestThreads, bestBlocks, blockSize = blocks*b, blocks, b
		}
	}
	return bestBlocks * attrs[driver.AttrMultiprocessorCount], blockSize, nil
}
