package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nugo-dev/nugo/internal/nvml"
	"github.com/nugo-dev/nugo/internal/nvml/fakenvml"
)

// twoGPUs is a fake with a busy GPU running two processes and an idle one
// without power or memory-clock readings.
func twoGPUs() *fakenvml.NVML {
	f := fakenvml.New(
		fakenvml.Device{
			Name: "NVIDIA H200", UUID: "GPU-0",
			Utilization: nvml.Utilization{GPU: 97, Memory: 41},
			Memory:      nvml.Memory{Total: 141 << 30, Used: 35 << 29, Free: 141<<30 - 35<<29},
			Temperature: 63, Power: 512_400,
			Clocks: map[nvml.Clock]int{nvml.ClockSM: 1980, nvml.ClockMem: 2619},
			Processes: []nvml.Process{
				{PID: 4242, UsedMemory: 3 << 30},
				{PID: 77, UsedMemory: nvml.NotAvailable},
			},
		},
		fakenvml.Device{
			Name: "Tesla T4", UUID: "GPU-1",
			Memory:      nvml.Memory{Total: 15 << 30, Used: 1 << 28},
			Temperature: 31,
			Clocks:      map[nvml.Clock]int{nvml.ClockSM: 300},
			Fail:        map[string]nvml.Return{"nvmlDeviceGetPowerUsage": nvml.ErrorNotSupported},
		},
	)
	f.Driver = "535.309.01"
	return f
}

var topTime = time.Date(2026, 12, 2, 16, 30, 5, 0, time.UTC)

func fixedNow() time.Time { return topTime }

// The exact table for the fake: every reading, n/a where a GPU has none,
// and the processes.
func TestTopTable(t *testing.T) {
	f := twoGPUs()
	var out bytes.Buffer
	if err := monitor(context.Background(), &out, f, topOptions{interval: time.Second, count: 1, now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	want := `nugo top  2026-12-02 16:30:05  driver 535.309.01  2 GPUs

GPU  name         util  mem util  memory used / total  temp   power  SM clock  mem clock  processes
0    NVIDIA H200  97%   41%       17.5 / 141.0 GiB     63 °C  512 W  1980 MHz  2619 MHz   2
1    Tesla T4     0%    0%        0.2 / 15.0 GiB       31 °C  n/a    300 MHz   n/a        0

  GPU  pid   GPU memory
  0    4242  3.00 GiB
  0    77    n/a
`
	if out.String() != want {
		t.Fatalf("table:\n%s\nwant:\n%s", out.String(), want)
	}
	if f.Inits() != 0 {
		t.Errorf("NVML left initialised (%d)", f.Inits())
	}
}

// -n COUNT prints COUNT tables, interval apart, separated by blank lines
// without a terminal and after a screen clear on one; readings change
// between refreshes; nothing is left running.
func TestTopCount(t *testing.T) {
	for _, clear := range []bool{false, true} {
		f := twoGPUs()
		before := runtime.NumGoroutine()
		var out bytes.Buffer
		w := &hookWriter{w: &out, hook: func(n int) { f.Devices[0].Temperature = 63 + n }}
		err := monitor(context.Background(), w, f, topOptions{interval: 20 * time.Millisecond, count: 3, clear: clear, now: fixedNow})
		if err != nil {
			t.Fatal(err)
		}
		s := out.String()
		if n := strings.Count(s, "nugo top  "); n != 3 {
			t.Fatalf("clear=%v: %d tables, want 3:\n%s", clear, n, s)
		}
		clears := strings.Count(s, "\x1b[H\x1b[2J")
		if clear && (clears != 3 || !strings.HasPrefix(s, "\x1b[H\x1b[2J")) || !clear && (clears != 0 || strings.Count(s, "\n\nnugo top  ") != 2) {
			t.Errorf("clear=%v: %d screen clears in\n%q", clear, clears, s)
		}
		if !strings.Contains(s, "63 °C") || !strings.Contains(s, "64 °C") {
			t.Errorf("the refreshes do not show the changed reading:\n%s", s)
		}
		if f.Calls["nvmlDeviceGetCount_v2"] != 3 || f.Calls["nvmlInit_v2"] != 1 || f.Inits() != 0 {
			t.Errorf("calls %v, %d inits left", f.Calls, f.Inits())
		}
		checkGoroutines(t, before)
	}
}

// hookWriter calls hook after each write that ends a table (the process
// list, whose last row is pid 77's, closes every table of twoGPUs).
type hookWriter struct {
	w      *bytes.Buffer
	tables int
	hook   func(tables int)
}

func (h *hookWriter) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	if done := strings.Count(h.w.String(), "77    n/a\n"); done > h.tables {
		h.tables = done
		h.hook(h.tables)
	}
	return n, err
}

// Without -n top runs until its context ends (an interrupt), then shuts
// NVML down and returns nil.
func TestTopUntilInterrupted(t *testing.T) {
	f := twoGPUs()
	before := runtime.NumGoroutine()
	// The timeout only keeps a broken hook from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	var out bytes.Buffer
	w := &hookWriter{w: &out, hook: func(n int) {
		if n == 2 {
			cancel()
		}
	}}
	if err := monitor(ctx, w, f, topOptions{interval: 10 * time.Millisecond, now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "nugo top  "); n != 2 || f.Inits() != 0 {
		t.Errorf("%d tables, %d inits left", n, f.Inits())
	}
	cancel()
	checkGoroutines(t, before)
}

func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	for range 50 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines before, %d after", before, runtime.NumGoroutine())
}

// Errors: NVML that does not start says why; a failing reading names the
// GPU; NVML is shut down whenever it was started.
func TestTopErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(f *fakenvml.NVML)
		want  string
	}{
		{"driver not loaded", func(f *fakenvml.NVML) { f.Fail = map[string]nvml.Return{"nvmlInit_v2": nvml.ErrorDriverNotLoaded} },
			"no NVIDIA driver is running on this machine (no GPU to monitor): nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED"},
		{"init fails", func(f *fakenvml.NVML) { f.Fail = map[string]nvml.Return{"nvmlInit_v2": nvml.ErrorLibRMVersionMismatch} },
			"NVML does not start, so no GPU can be monitored: nvmlInit_v2: NVML_ERROR_LIB_RM_VERSION_MISMATCH"},
		{"no GPU", func(f *fakenvml.NVML) { f.Devices = nil }, "NVML sees no GPU"},
		{"count fails", func(f *fakenvml.NVML) { f.Fail = map[string]nvml.Return{"nvmlDeviceGetCount_v2": nvml.ErrorUnknown} },
			"nvmlDeviceGetCount_v2: NVML_ERROR_UNKNOWN"},
		{"driver version", func(f *fakenvml.NVML) {
			f.Fail = map[string]nvml.Return{"nvmlSystemGetDriverVersion": nvml.ErrorUnknown}
		}, "nvmlSystemGetDriverVersion"},
		{"lost GPU", func(f *fakenvml.NVML) {
			f.Devices[1].Fail = map[string]nvml.Return{"nvmlDeviceGetName": nvml.ErrorGPUIsLost}
		}, "GPU 1: nvmlDeviceGetName: NVML_ERROR_GPU_IS_LOST"},
		{"temperature fails", func(f *fakenvml.NVML) {
			f.Devices[1].Fail = map[string]nvml.Return{"nvmlDeviceGetTemperature": nvml.ErrorUnknown}
		}, "GPU 1 (Tesla T4): nvmlDeviceGetTemperature: NVML_ERROR_UNKNOWN"},
		{"shutdown fails", func(f *fakenvml.NVML) { f.Fail = map[string]nvml.Return{"nvmlShutdown": nvml.ErrorUnknown} },
			"nvmlShutdown: NVML_ERROR_UNKNOWN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := twoGPUs()
			c.setup(f)
			var out bytes.Buffer
			err := monitor(context.Background(), &out, f, topOptions{interval: time.Second, count: 1, now: fixedNow})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if c.name != "shutdown fails" && f.Inits() != 0 {
				t.Errorf("NVML left initialised")
			}
		})
	}
	// Readings a GPU does not offer, or that need privileges, are n/a.
	f := twoGPUs()
	f.Devices[0].Fail = map[string]nvml.Return{
		"nvmlDeviceGetComputeRunningProcesses_v3": nvml.ErrorNoPermission,
		"nvmlDeviceGetUtilizationRates":           nvml.ErrorNotSupported,
		"nvmlDeviceGetMemoryInfo":                 nvml.ErrorNotSupported,
		"nvmlDeviceGetTemperature":                nvml.ErrorNotSupported,
	}
	var out bytes.Buffer
	if err := monitor(context.Background(), &out, f, topOptions{interval: time.Second, count: 1, now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	if row := strings.Split(out.String(), "\n")[3]; strings.Join(strings.Fields(row), " ") != "0 NVIDIA H200 n/a n/a n/a n/a 512 W 1980 MHz 2619 MHz n/a" {
		t.Errorf("row %q", row)
	}
}

// runTop with the NVML loader replaced: flags reach monitor; NVML that
// cannot be loaded is one sentence naming the library.
func TestTopCommand(t *testing.T) {
	saved := openNVML
	t.Cleanup(func() { openNVML = saved })
	openNVML = func() (nvml.API, error) { return nil, errors.New("cannot load libnvidia-ml.so.1") }
	err := runTop([]string{"-n", "1"})
	if err == nil || err.Error() != "cannot monitor GPUs: cannot load libnvidia-ml.so.1" {
		t.Errorf("runTop without NVML = %v", err)
	}
	f := twoGPUs()
	f.Fail = map[string]nvml.Return{"nvmlDeviceGetCount_v2": nvml.ErrorUnknown}
	openNVML = func() (nvml.API, error) { return f, nil }
	if err := runTop([]string{"-n", "2", "-interval", "10ms"}); nvml.Code(err) != nvml.ErrorUnknown || f.Inits() != 0 {
		t.Errorf("runTop = %v, %d inits left", err, f.Inits())
	}
}

// Through the real loader: a missing library is ErrNoLibrary naming the
// override variable; with the real library and no GPU, the driver is not
// loaded; with a GPU (NUGO_REQUIRE_GPU=1) one table comes out.
func TestTopRealNVML(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		t.Setenv(nvml.LibraryEnv, "/nonexistent/libnvidia-ml.so.1")
		err := runTop([]string{"-n", "1"})
		if !errors.Is(err, nvml.ErrNoLibrary) || !strings.Contains(err.Error(), "cannot monitor GPUs: cannot load /nonexistent/libnvidia-ml.so.1") || !strings.Contains(err.Error(), nvml.LibraryEnv) {
			t.Errorf("runTop = %v", err)
		}
	})
	t.Run("installed", func(t *testing.T) {
		if _, err := nvml.Load(); err != nil {
			t.Skipf("SKIP: %v", err)
		}
		err := runTop([]string{"-n", "1"})
		if os.Getenv("NUGO_REQUIRE_GPU") == "1" {
			if err != nil {
				t.Fatalf("nugo top -n 1 on the GPU machine: %v", err)
			}
			return
		}
		if err != nil && nvml.Code(err) != nvml.ErrorDriverNotLoaded {
			t.Errorf("nugo top -n 1 = %v", err)
		}
	})
}
