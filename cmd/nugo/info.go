package main

import (
	"flag"
	"fmt"
	"runtime"

	"github.com/nugo-dev/nugo/cuda"
)

func init() {
	commands["info"] = command{summary: "show the backends, why a GPU is or is not used, and the devices", run: runInfo}
}

func runInfo(args []string) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	fmt.Printf("go          %s %s/%s, GOMAXPROCS=%d\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
	fmt.Println("backends:")
	for _, b := range cuda.Backends() {
		if b.Available {
			fmt.Printf("  %-7s available\n", b.Backend)
		} else {
			fmt.Printf("  %-7s not available: %s\n", b.Backend, b.Reason)
		}
	}
	if be, err := cuda.CurrentBackend(); err != nil {
		fmt.Printf("selected    none: %v\n", err)
	} else {
		fmt.Printf("selected    %s (NUGO_BACKEND chooses; auto picks the GPU when one can be used)\n", be)
		if n, err := cuda.DeviceCount(); err != nil {
			fmt.Printf("-devices    %v\n", err)
		} else {
			fmt.Printf("-devices    all is %d device%s of %s (cpu and ptxsim: NUGO_VIRTUAL_DEVICES)\n", n, plural(n), be)
		}
	}
	fmt.Printf("nvml        %s\n", nvmlStatus())
	gpus, err := cuda.Gpus()
	if err != nil {
		fmt.Printf("devices     none: %v\n", err)
		return nil
	}
	for _, d := range gpus {
		coop := ""
		if d.Cooperative {
			coop = ", cooperative launches"
		}
		fmt.Printf("device %d    %s, compute capability %d.%d, %d SMs, %.1f GiB, %d threads/block, %d KiB shared/block%s\n",
			d.ID, d.Name, d.ComputeCapability[0], d.ComputeCapability[1], d.Multiprocessors,
			float64(d.TotalMemory)/(1<<30), d.MaxThreadsPerBlock, d.SharedMemPerBlock>>10, coop)
	}
	return nil
}

// nvmlStatus is nugo info's line on NVML, which nugo top reads.
func nvmlStatus() string {
	api, err := openNVML()
	if err != nil {
		return fmt.Sprintf("not available (nugo top needs it): %v", err)
	}
	if err := api.Init(); err != nil {
		return fmt.Sprintf("not available (nugo top needs it): %v", err)
	}
	defer api.Shutdown()
	v, err := api.DriverVersion()
	if err != nil {
		return fmt.Sprintf("started, but: %v", err)
	}
	n, err := api.DeviceCount()
	if err != nil {
		return fmt.Sprintf("driver %s, but: %v", v, err)
	}
	return fmt.Sprintf("driver %s, %d GPU%s (nugo top monitors them)", v, n, plural(n))
}
