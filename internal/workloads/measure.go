package workloads

import (
	"fmt"
	"slices"
	"time"

	"github.com/nugo-dev/nugo/cuda"
)

// measure fills the timings of r for a launch (nil stream: synchronous).
func measure(r *Result, reps int, launch func(s *cuda.Stream) error) error {
	t0 := time.Now()
	if err := launch(nil); err != nil {
		return fmt.Errorf("first launch: %w", err)
	}
	r.FirstMS = ms(time.Since(t0))
	for range 2 {
		if err := launch(nil); err != nil {
			return fmt.Errorf("warm-up launch: %w", err)
		}
	}
	s, err := cuda.NewStream()
	if err != nil {
		return err
	}
	host := make([]float64, 0, reps)
	r.KernelMS, err = eventMedian(reps, s, func(s *cuda.Stream) error {
		t0 := time.Now()
		err := launch(s)
		host = append(host, float64(time.Since(t0).Nanoseconds())/1e3)
		return err
	})
	r.LaunchUS = median(host)
	return err
}

// eventMedian is the median time of reps runs of op on s between two events.
func eventMedian(reps int, s *cuda.Stream, op func(*cuda.Stream) error) (float64, error) {
	start, err := cuda.NewEvent()
	if err != nil {
		return 0, err
	}
	end, err := cuda.NewEvent()
	if err != nil {
		return 0, err
	}
	times := make([]float64, 0, reps)
	for range reps {
		if err := start.Record(s); err != nil {
			return 0, err
		}
		if err := op(s); err != nil {
			return 0, err
		}
		if err := end.Record(s); err != nil {
			return 0, err
		}
		d, err := cuda.ElapsedTime(start, end)
		if err != nil {
			return 0, err
		}
		times = append(times, ms(d))
	}
	return median(times), nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
