package cuda

import (
	"errors"
	"fmt"

	"github.com/nugo-dev/nugo/internal/driver"
)

// ProfileStart starts the collection of profile data by a profiler
// attached to the process, such as Nsight Systems with
// --capture-range=cudaProfilerApi (Numba's cuda.profile_start; CUDA's
// cuProfilerStart), so that a profile covers only the code between
// ProfileStart and ProfileStop. On the gpu backend it calls the driver in
// the selected device's context; without a profiler attached the driver
// does nothing. On the host backends (cpu, ptxsim) it does nothing and
// returns nil.
func ProfileStart() error { return profile(true) }

// ProfileStop stops the collection of profile data that ProfileStart
// started (Numba's cuda.profile_stop; CUDA's cuProfilerStop). On the host
// backends it does nothing and returns nil.
func ProfileStop() error { return profile(false) }

func profile(start bool) error {
	what := "ProfileStop"
	if start {
		what = "ProfileStart"
	}
	be, err := current()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := be.profile(start); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// profile is ProfileStart or ProfileStop on the host backends: there is
// no profiler to tell.
func (h *hostBackend) profile(start bool) error { return nil }

// profile starts or stops the profiler in the selected device's context
// (cuProfilerStart, cuProfilerStop).
func (g *gpuBackend) profile(start bool) error {
	d := g.current()
	err := d.do(func(api driver.API) error {
		if start {
			return api.ProfilerStart()
		}
		return api.ProfilerStop()
	})
	if err != nil && !errors.Is(err, ErrContextLost) {
		err = fmt.Errorf("device %d: %w", d.props.Ordinal, err)
	}
	return err
}
