package driver_test

import (
	"fmt"
	"unsafe"

	"github.com/nugo-dev/nugo/internal/driver"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// The call sequence a GPU backend makes for one launch with a host slice
// argument, here against the fake driver (driver.Load gives the real one).
func Example() {
	var api driver.API = fakedriver.New(fakedriver.Config{})
	if _, err := driver.Start(api); err != nil {
		fmt.Println(err) // wraps driver.ErrNoDevice: fall back to the CPU
		return
	}
	dc, err := driver.OpenDevice(api, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dc.Close()
	fmt.Println(dc.Props().Name, dc.Props().Arch())

	data := []float32{1, 2, 3, 4}
	err = dc.Do(func(api driver.API) error {
		mod, _, err := api.ModuleLoadData(".version 7.8\n.target sm_75\n.visible .entry inc(.param .u64 p, .param .u64 n) { ret; }", driver.JITOptions{})
		if err != nil {
			return err // a *driver.Error; its Log holds ptxas's messages
		}
		defer api.ModuleUnload(mod)
		fn, err := api.ModuleGetFunction(mod, "inc")
		if err != nil {
			return err
		}
		n := len(data) * 4
		p, err := api.MemAlloc(n)
		if err != nil {
			return err
		}
		defer api.MemFree(p)
		if err := api.MemcpyHtoD(p, unsafe.Pointer(&data[0]), n); err != nil {
			return err
		}
		var params driver.Params
		params.AddPtr(p)
		params.AddU64(uint64(len(data)))
		if err := api.LaunchKernel(fn, driver.Dim3{X: 1, Y: 1, Z: 1}, driver.Dim3{X: 32, Y: 1, Z: 1}, 0, 0, &params); err != nil {
			return err
		}
		return api.MemcpyDtoH(unsafe.Pointer(&data[0]), p, n)
	})
	fmt.Println(err, data)
	// Output:
	// nugo fake GPU (sm_75) sm_75
	// <nil> [1 2 3 4]
}
