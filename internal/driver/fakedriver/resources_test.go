package fakedriver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// resourcePTX is a module with one kernel, k, whose body declares decls.
func resourcePTX(decls string) string { return resourcePTXHead("", decls) }

// resourcePTXHead is resourcePTX with head (performance directives such as
// .maxnreg) between the entry's parameters and its body.
func resourcePTXHead(head, decls string) string {
	return fmt.Sprintf(".version 7.8\n.target sm_75\n.address_size 64\n.shared .align 4 .b32 tile[64];\n"+
		".visible .entry k(.param .u64 p)%s\n{\n%s\n\tret;\n}\n"+
		".visible .func (.param .b32 r) other()\n{\n\t.reg .b64 %%big<4000>;\n\tret;\n}\n", head, decls)
}

// The fake estimates a kernel's registers, local and shared memory from its
// PTX, and derives the threads per block the registers allow on its device.
func TestKernelResourcesFromPTX(t *testing.T) {
	small := fakedriver.DefaultDevice()
	small.Attrs[driver.AttrMaxRegistersPerBlock] = 32768
	cases := []struct {
		name    string
		head    string
		decls   string
		dev     *fakedriver.DeviceSpec
		regs    int
		local   int
		threads int
	}{
		{"no registers", "", "", nil, 16, 0, 1024},
		{"predicates do not count", "", ".reg .pred %p<400>;", nil, 16, 0, 1024},
		{"an eighth of the 32-bit slots", "", ".reg .b32 %r<400>;\n.reg .f32 %f<112>;", nil, 64, 0, 1024},
		{"64-bit registers take two slots", "", ".reg .b64 %rd<288>;", nil, 72, 0, 896},
		{"single names and packed halves", "", ".reg .b32 %a, %b, %c;\n.reg .f16x2 %h<509>;", nil, 64, 0, 1024},
		{"capped at 255", "", ".reg .b64 %rd<5000>;", nil, 255, 0, 256},
		{"fewer registers per block", "", ".reg .b32 %r<800>;", &small, 100, 0, 288},
		{".maxnreg caps the estimate", "\n.maxnreg 40", ".reg .b64 %rd<288>;", nil, 40, 0, 1024},
		{".maxnreg above the estimate", " .maxntid 256, 1, 1 .maxnreg 200", ".reg .b64 %rd<288>;", nil, 72, 0, 896},
		{".maxnreg below the minimum", " .maxnreg 8", ".reg .b64 %rd<288>;", nil, 16, 0, 1024},
		{"local arrays", "", ".local .align 8 .b8 depot[24];\n.local .align 4 .b32 x[4];\n.reg .b32 %r<4>;", nil, 16, 40, 1024},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := fakedriver.Config{}
			if c.dev != nil {
				cfg.Devices = []fakedriver.DeviceSpec{*c.dev}
			}
			f := ready(t, cfg)
			m, _, err := f.ModuleLoadData(resourcePTXHead(c.head, c.decls), driver.JITOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fn, err := f.ModuleGetFunction(m, "k")
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range []struct {
				attr driver.FunctionAttribute
				want int
			}{
				{driver.FuncNumRegs, c.regs},
				{driver.FuncLocalSizeBytes, c.local},
				{driver.FuncMaxThreadsPerBlock, c.threads},
				{driver.FuncSharedSizeBytes, 256},
				{driver.FuncMaxDynamicSharedSize, 48<<10 - 256},
			} {
				if v, err := f.FuncGetAttribute(fn, a.attr); err != nil || v != a.want {
					t.Errorf("attribute %d = %d, %v; want %d", a.attr, v, err, a.want)
				}
			}
		})
	}
}

// A register count set by the test lowers the threads per block the fake
// derives from it, and a launch above them fails as on a GPU; an explicit
// MaxThreadsPerBlock wins over the derived one.
func TestKernelRegistersLimitTheBlock(t *testing.T) {
	for _, mode := range []string{"plain", "sim"} {
		t.Run(mode, func(t *testing.T) {
			cfg := fakedriver.Config{}
			if mode == "sim" {
				cfg.Sim = &fakedriver.SimConfig{}
			}
			f := ready(t, cfg)
			m, _, err := f.ModuleLoadData(simPTX, driver.JITOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fn, _ := f.ModuleGetFunction(m, "poke")
			p, _ := f.MemAlloc(4)
			var params driver.Params
			params.AddPtr(p)
			launch := func(threads int) error {
				return f.LaunchKernel(fn, driver.Dim3{X: 1, Y: 1, Z: 1}, driver.Dim3{X: threads, Y: 1, Z: 1}, 0, 0, &params)
			}
			if v, _ := f.FuncGetAttribute(fn, driver.FuncNumRegs); v != 16 {
				t.Fatalf("poke's registers = %d, want 16", v)
			}
			if err := launch(1024); err != nil {
				t.Fatalf("1024 threads of a 16-register kernel: %v", err)
			}
			steps := []struct {
				attr      driver.FunctionAttribute
				value     int
				wantLimit int // the derived or set limit
				fails     int // a block above it
				succeeds  int
			}{
				{driver.FuncNumRegs, 255, 256, 512, 256},
				{driver.FuncNumRegs, 72, 896, 1024, 896},
				{driver.FuncMaxThreadsPerBlock, 128, 128, 160, 128},
			}
			for _, s := range steps {
				f.SetFuncAttr("poke", s.attr, s.value)
				if v, _ := f.FuncGetAttribute(fn, driver.FuncMaxThreadsPerBlock); v != s.wantLimit {
					t.Fatalf("after attribute %d = %d: MaxThreadsPerBlock %d, want %d", s.attr, s.value, v, s.wantLimit)
				}
				wantCode(t, launch(s.fails), "cuLaunchKernel", driver.ErrorLaunchOutOfRes)
				if err := launch(s.succeeds); err != nil {
					t.Fatalf("%d threads within the limit: %v", s.succeeds, err)
				}
			}
			if err := f.CtxSynchronize(); err != nil {
				t.Fatal(err)
			}
			// The .local arrays the entry declares.
			hello, _ := f.ModuleGetFunction(m, "hello")
			if v, _ := f.FuncGetAttribute(hello, driver.FuncLocalSizeBytes); v != 8 {
				t.Fatalf("hello's local memory = %d, want 8", v)
			}
		})
	}
}

// The fake's occupancy calculator picks the block size with the most
// resident threads per multiprocessor under its threads, registers and
// shared memory, the larger on a tie.
func TestOccupancyMaxPotentialBlockSize(t *testing.T) {
	cases := []struct {
		name             string
		decls            string
		dyn, limit       int
		wantGrid, wantBk int
	}{
		{"whole block", "", 0, 0, 40, 1024},
		{"a limit that does not divide the SM: smaller blocks fill it", "", 0, 96, 640, 64},
		{"registers bound the block", ".reg .b32 %r<800>;", 0, 0, 40, 608},
		{"limited blocks, no shared memory", "", 0, 256, 160, 256},
		{"limited blocks, shared memory bounds blocks per SM", "", 20 << 10, 256, 120, 256},
		{"more shared memory than a block can have", "", 1 << 20, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ready(t, fakedriver.Config{})
			m, _, err := f.ModuleLoadData(resourcePTX(c.decls), driver.JITOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fn, err := f.ModuleGetFunction(m, "k")
			if err != nil {
				t.Fatal(err)
			}
			grid, block, err := f.OccupancyMaxPotentialBlockSize(fn, c.dyn, c.limit)
			if err != nil || grid != c.wantGrid || block != c.wantBk {
				t.Errorf("OccupancyMaxPotentialBlockSize(%d, %d) = %d, %d, %v; want %d, %d", c.dyn, c.limit, grid, block, err, c.wantGrid, c.wantBk)
			}
		})
	}
	f := ready(t, fakedriver.Config{})
	m, _, _ := f.ModuleLoadData(resourcePTX(""), driver.JITOptions{})
	fn, _ := f.ModuleGetFunction(m, "k")
	if _, _, err := f.OccupancyMaxPotentialBlockSize(fn, -1, 0); driver.Code(err) != driver.ErrorInvalidValue {
		t.Errorf("negative shared memory: %v", err)
	}
	if _, _, err := f.OccupancyMaxPotentialBlockSize(fn+99, 0, 0); driver.Code(err) != driver.ErrorInvalidHandle {
		t.Errorf("unknown function: %v", err)
	}
}

// The fake's blocks per multiprocessor follow the occupancy model for one
// block size: threads (in whole warps), registers and shared memory.
func TestOccupancyMaxActiveBlocksPerMultiprocessor(t *testing.T) {
	cases := []struct {
		name       string
		decls      string
		block, dyn int
		want       int
	}{
		{"threads bound the blocks", "", 256, 0, 4},
		{"a partial warp counts whole", "", 100, 0, 8},
		{"registers bound the blocks", ".reg .b32 %r<800>;", 256, 0, 2},
		{"shared memory bounds the blocks", "", 256, 20 << 10, 3},
		{"more threads than the kernel allows", ".reg .b32 %r<800>;", 640, 0, 0},
		{"more shared memory than a block can have", "", 32, 1 << 20, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ready(t, fakedriver.Config{})
			m, _, err := f.ModuleLoadData(resourcePTX(c.decls), driver.JITOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fn, err := f.ModuleGetFunction(m, "k")
			if err != nil {
				t.Fatal(err)
			}
			if n, err := f.OccupancyMaxActiveBlocksPerMultiprocessor(fn, c.block, c.dyn); err != nil || n != c.want {
				t.Errorf("OccupancyMaxActiveBlocksPerMultiprocessor(%d, %d) = %d, %v; want %d", c.block, c.dyn, n, err, c.want)
			}
		})
	}
	f := ready(t, fakedriver.Config{})
	m, _, _ := f.ModuleLoadData(resourcePTX(""), driver.JITOptions{})
	fn, _ := f.ModuleGetFunction(m, "k")
	if _, err := f.OccupancyMaxActiveBlocksPerMultiprocessor(fn, 0, 0); driver.Code(err) != driver.ErrorInvalidValue {
		t.Errorf("block of 0 threads: %v", err)
	}
	if _, err := f.OccupancyMaxActiveBlocksPerMultiprocessor(fn+99, 32, 0); driver.Code(err) != driver.ErrorInvalidHandle {
		t.Errorf("unknown function: %v", err)
	}
}

// A cooperative launch is recorded as such, refused on a device without
// cooperative launches, and refused for a grid over the resident limit
// (4 blocks of 256 threads on each of the 40 multiprocessors).
func TestLaunchCooperativeKernel(t *testing.T) {
	noCoop := fakedriver.DefaultDevice()
	noCoop.Attrs[driver.AttrCooperativeLaunch] = 0
	block := driver.Dim3{X: 256, Y: 1, Z: 1}
	var params driver.Params
	params.AddPtr(0x1000)
	cases := []struct {
		name string
		dev  *fakedriver.DeviceSpec
		grid int
		want driver.Result
	}{
		{"every block resident", nil, 160, driver.Success},
		{"one block too many", nil, 161, driver.ErrorCooperativeLaunchTooLarge},
		{"a device without cooperative launches", &noCoop, 1, driver.ErrorNotSupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := fakedriver.Config{}
			if c.dev != nil {
				cfg.Devices = []fakedriver.DeviceSpec{*c.dev}
			}
			f := ready(t, cfg)
			m, _, err := f.ModuleLoadData(resourcePTX(""), driver.JITOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fn, err := f.ModuleGetFunction(m, "k")
			if err != nil {
				t.Fatal(err)
			}
			err = f.LaunchCooperativeKernel(fn, driver.Dim3{X: c.grid, Y: 1, Z: 1}, block, 0, 0, &params)
			if driver.Code(err) != c.want {
				t.Fatalf("LaunchCooperativeKernel over %d blocks: %v, want %v", c.grid, err, c.want)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "cuLaunchCooperativeKernel") {
					t.Errorf("error %q does not name cuLaunchCooperativeKernel", err)
				}
				return
			}
			if err := f.LaunchKernel(fn, driver.Dim3{X: 1, Y: 1, Z: 1}, block, 0, 0, &params); err != nil {
				t.Fatal(err)
			}
			ls := f.Launches()
			if len(ls) != 2 || !ls[0].Cooperative || ls[1].Cooperative {
				t.Errorf("launches recorded: %+v; want the first cooperative, the second not", ls)
			}
		})
	}
}
