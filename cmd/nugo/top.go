package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/nugo-dev/nugo/internal/nvml"
)

func init() {
	commands["top"] = command{summary: "monitor the GPUs through NVML: utilization, memory, temperature, power, clocks", run: runTop}
}

// openNVML loads NVML; tests replace it with a fake.
var openNVML = func() (nvml.API, error) {
	l, err := nvml.Load()
	if err != nil {
		return nil, err
	}
	return l, nil
}

// topOptions are nugo top's settings.
type topOptions struct {
	interval time.Duration
	count    int              // tables to print; 0: until interrupted
	clear    bool             // clear the screen before each table (a terminal)
	now      func() time.Time // the time in each heading
}

const topUsage = `usage: nugo top [-interval 1s] [-n COUNT]

Prints a table of the GPUs every -interval, read through NVML
(libnvidia-ml.so.1, installed with the NVIDIA driver; NUGO_LIBNVML names
another path): utilization, memory used and total, temperature, power draw,
SM and memory clocks, and the processes using each GPU. -n 1 prints once and
exits. On a terminal the screen is redrawn; elsewhere tables follow one
another. Without NVML or a GPU it exits with status 1 and says why.

`

func runTop(args []string) error {
	fs := flag.NewFlagSet("top", flag.ContinueOnError)
	interval := fs.Duration("interval", time.Second, "time between refreshes")
	count := fs.Int("n", 0, "print `COUNT` tables and exit; 0: until interrupted")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), topUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *interval < 10*time.Millisecond {
		return fmt.Errorf("-interval %v: at least 10ms", *interval)
	}
	if *count < 0 {
		return fmt.Errorf("-n %d: the number of tables must be at least 0 (0: until interrupted)", *count)
	}
	api, err := openNVML()
	if err != nil {
		return fmt.Errorf("cannot monitor GPUs: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	tty := term.IsTerminal(int(os.Stdout.Fd()))
	return monitor(ctx, os.Stdout, api, topOptions{interval: *interval, count: *count, clear: tty && *count != 1, now: time.Now})
}

// monitor initialises NVML, prints opt.count tables (0: until ctx ends)
// opt.interval apart, and shuts NVML down.
func monitor(ctx context.Context, w io.Writer, api nvml.API, opt topOptions) (err error) {
	if err := api.Init(); err != nil {
		if nvml.Code(err) == nvml.ErrorDriverNotLoaded {
			return fmt.Errorf("no NVIDIA driver is running on this machine (no GPU to monitor): %w", err)
		}
		return fmt.Errorf("NVML does not start, so no GPU can be monitored: %w", err)
	}
	defer func() {
		if serr := api.Shutdown(); err == nil && serr != nil {
			err = serr
		}
	}()
	driver, err := api.DriverVersion()
	if err != nil {
		return err
	}
	ticker := time.NewTicker(opt.interval)
	defer ticker.Stop()
	for i := 0; opt.count == 0 || i < opt.count; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return nil
			case <-ticker.C:
			}
		}
		gpus, err := sampleGPUs(api)
		if err != nil {
			return err
		}
		if opt.clear {
			fmt.Fprint(w, "\x1b[H\x1b[2J") // cursor home, clear the screen
		} else if i > 0 {
			fmt.Fprintln(w)
		}
		if err := writeTopTable(w, opt.now(), driver, gpus); err != nil {
			return err
		}
	}
	return nil
}

// gpuSample is one GPU's readings; a reading the GPU does not offer is
// unavailable (NVML_ERROR_NOT_SUPPORTED or NO_PERMISSION) and shows as n/a.
type gpuSample struct {
	index           int
	name            string
	util            nvml.Utilization
	mem             nvml.Memory
	temp, power     int
	sm, memClock    int
	procs           []nvml.Process
	utilOK, memOK   bool
	tempOK, powerOK bool
	smOK, mclkOK    bool
	procsOK         bool
}

// unavailable reports whether err says the reading does not exist here,
// rather than that something failed.
func unavailable(err error) bool {
	c := nvml.Code(err)
	return c == nvml.ErrorNotSupported || c == nvml.ErrorNoPermission
}

// sampleGPUs reads every GPU once.
func sampleGPUs(api nvml.API) ([]gpuSample, error) {
	n, err := api.DeviceCount()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("NVML sees no GPU")
	}
	out := make([]gpuSample, n)
	for i := range out {
		s := &out[i]
		s.index = i
		d, err := api.DeviceByIndex(i)
		if err != nil {
			return nil, fmt.Errorf("GPU %d: %w", i, err)
		}
		if s.name, err = api.DeviceName(d); err != nil {
			return nil, fmt.Errorf("GPU %d: %w", i, err)
		}
		// read keeps an available reading, notes an unavailable one and
		// stops at any other error.
		read := func(ok *bool, err error) error {
			switch {
			case err == nil:
				*ok = true
			case unavailable(err):
			default:
				return fmt.Errorf("GPU %d (%s): %w", i, s.name, err)
			}
			return nil
		}
		var errs []error
		s.util, err = api.DeviceUtilization(d)
		errs = append(errs, read(&s.utilOK, err))
		s.mem, err = api.DeviceMemory(d)
		errs = append(errs, read(&s.memOK, err))
		s.temp, err = api.DeviceTemperature(d)
		errs = append(errs, read(&s.tempOK, err))
		s.power, err = api.DevicePower(d)
		errs = append(errs, read(&s.powerOK, err))
		s.sm, err = api.DeviceClock(d, nvml.ClockSM)
		errs = append(errs, read(&s.smOK, err))
		s.memClock, err = api.DeviceClock(d, nvml.ClockMem)
		errs = append(errs, read(&s.mclkOK, err))
		s.procs, err = api.DeviceProcesses(d)
		errs = append(errs, read(&s.procsOK, err))
		for _, e := range errs {
			if e != nil {
				return nil, e
			}
		}
	}
	return out, nil
}

// writeTopTable prints one refresh: a heading, a row per GPU, then the
// processes using them.
func writeTopTable(w io.Writer, now time.Time, driver string, gpus []gpuSample) error {
	fmt.Fprintf(w, "nugo top  %s  driver %s  %d GPU%s\n\n", now.Format("2006-01-02 15:04:05"), driver, len(gpus), plural(len(gpus)))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GPU\tname\tutil\tmem util\tmemory used / total\ttemp\tpower\tSM clock\tmem clock\tprocesses")
	na := "n/a"
	for _, g := range gpus {
		util, memUtil, mem, temp, power, sm, mclk, procs := na, na, na, na, na, na, na, na
		if g.utilOK {
			util, memUtil = fmt.Sprintf("%d%%", g.util.GPU), fmt.Sprintf("%d%%", g.util.Memory)
		}
		if g.memOK {
			mem = fmt.Sprintf("%.1f / %.1f GiB", gib(g.mem.Used), gib(g.mem.Total))
		}
		if g.tempOK {
			temp = fmt.Sprintf("%d °C", g.temp)
		}
		if g.powerOK {
			power = fmt.Sprintf("%.0f W", float64(g.power)/1000)
		}
		if g.smOK {
			sm = fmt.Sprintf("%d MHz", g.sm)
		}
		if g.mclkOK {
			mclk = fmt.Sprintf("%d MHz", g.memClock)
		}
		if g.procsOK {
			procs = fmt.Sprint(len(g.procs))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", g.index, g.name, util, memUtil, mem, temp, power, sm, mclk, procs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var procs []string
	for _, g := range gpus {
		for _, p := range g.procs {
			used := "n/a"
			if p.UsedMemory != nvml.NotAvailable {
				used = fmt.Sprintf("%.2f GiB", gib(p.UsedMemory))
			}
			procs = append(procs, fmt.Sprintf("  %d\t%d\t%s\n", g.index, p.PID, used))
		}
	}
	if len(procs) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "  GPU\tpid\tGPU memory\n", strings.Join(procs, ""))
	return tw.Flush()
}

func gib(b uint64) float64 { return float64(b) / (1 << 30) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
