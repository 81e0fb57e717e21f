package cuda

import "github.com/nugo-dev/nugo/internal/compiler"

// PackForTest compiles k for sm_75, binds args and packs them with the
// given device addresses, for the external tests of argument packing.
func PackForTest(k *Kernel, args []any, addrs []uint64) ([]byte, *compiler.Module, error) {
	bound, err := k.bind(nil, args)
	if err != nil {
		return nil, nil, err
	}
	m, err := k.module(k.target(0), bound)
	if err != nil {
		return nil, nil, err
	}
	buf, err := packParams(m, bound, addrs)
	return buf, m, err
}

// CompiledForms counts the compiled forms k holds (modules and loaded
// kernels).
func CompiledForms(k *Kernel) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.compiled)
}

// LaunchPTX is the PTX a launch of k with args on the current backend runs
// for compute capability sm: the variant for overlapping arguments where
// they overlap.
func LaunchPTX(k *Kernel, sm int, args ...any) (string, error) {
	be, err := current()
	if err != nil {
		return "", err
	}
	bound, err := k.bind(be, args)
	if err != nil {
		return "", err
	}
	target := k.target(sm)
	target.NoReadOnlyCache = argsOverlap(bound)
	m, err := k.module(target, bound)
	if err != nil {
		return "", err
	}
	return m.PTX, nil
}
