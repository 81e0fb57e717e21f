package cuda

import "github.com/nugo-dev/nugo/internal/compiler"

// PackForTest compiles k for sm_75, binds args and packs them with the
// given device addresses, for the external tests of argument packing.
func PackForTest(k *Kernel, args []any, addrs []uint64) ([]byte, *compiler.Module, error) {
	m, err := k.module(k.target(0))
	if err != nil {
		return nil, nil, err
	}
	bound, err := k.bind(nil, args)
	if err != nil {
		return nil, nil, err
	}
	buf, err := packParams(m, bound, addrs)
	return buf, m, err
}
