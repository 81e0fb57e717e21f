package fakedriver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nugo-dev/nugo/internal/driver"
)

var (
	versionRE = lazyRE(`(?m)^\s*\.version\s+(\d+)\.(\d+)\b`)
	targetRE  = lazyRE(`(?m)^\s*\.target\s+sm_(\d+)([a-z]?)\b`)
)

// driverPTX is the newest PTX ISA version (10*major+minor) that a driver of
// each CUDA version (cuDriverGetVersion) JIT-compiles, from the PTX ISA
// release history; a driver between two rows supports the lower one.
var driverPTX = []struct{ driver, ptx int }{
	{11000, 70}, {11010, 71}, {11020, 72}, {11030, 73}, {11040, 74}, {11050, 75},
	{11060, 76}, {11070, 77}, {11080, 78}, {12000, 80}, {12010, 81}, {12020, 82},
	{12030, 83}, {12040, 84}, {12050, 85}, {12070, 86}, {12080, 87}, {12090, 88},
	{13000, 90}, {13010, 91},
}

// maxPTX is the newest PTX ISA version a driver of CUDA version v accepts.
func maxPTX(v int) int {
	best := 0
	for _, r := range driverPTX {
		if v >= r.driver {
			best = r.ptx
		}
	}
	return best
}

// targetPTX is the PTX ISA version (10*major+minor) that introduced each
// .target architecture from sm_70 on; older ones predate PTX 7.0.
var targetPTX = map[int]int{
	70: 60, 72: 61, 75: 63, 80: 70, 86: 71, 87: 74, 88: 90, 89: 78, 90: 78,
	100: 86, 101: 86, 103: 88, 110: 90, 120: 87, 121: 88,
}

// checkPTXHeader checks a module's .version and .target the way the real
// driver's JIT does: a .version newer than the driver knows is
// CUDA_ERROR_UNSUPPORTED_PTX_VERSION; a .target the .version cannot name,
// or newer than the device (computeCap as 75, 90, ...), is
// CUDA_ERROR_INVALID_PTX with a ptxas-style log. Text without the
// directives is left to the caller.
func checkPTXHeader(call, ptx string, driverVersion, computeCap int) *driver.Error {
	v := versionRE().FindStringSubmatch(ptx)
	tg := targetRE().FindStringSubmatch(ptx)
	if v == nil || tg == nil {
		return nil
	}
	major, _ := strconv.Atoi(v[1])
	minor, _ := strconv.Atoi(v[2])
	version := 10*major + minor
	sm, _ := strconv.Atoi(tg[1])
	fail := func(code driver.Result, format string, args ...any) *driver.Error {
		e := driver.NewError(call, code)
		e.Log = "ptxas fatal   : " + fmt.Sprintf(format, args...)
		return e
	}
	if top := maxPTX(driverVersion); version > top {
		return fail(driver.ErrorUnsupportedPTX, "Unsupported .version %d.%d; current version is '%d.%d'", major, minor, top/10, top%10)
	}
	if need, ok := targetPTX[sm]; ok && version < need {
		return fail(driver.ErrorInvalidPTX, "PTX .version %d.%d does not support .target sm_%d%s", major, minor, sm, tg[2])
	}
	if sm > computeCap {
		return fail(driver.ErrorInvalidPTX, "SM version specified by .target (sm_%d) is higher than the device's (sm_%d)", sm, computeCap)
	}
	return nil
}

// paramSizeRE matches one .param declaration of an .entry: its element
// width in bits and an optional array length.
var paramSizeRE = lazyRE(`\.param\s+(?:\.align\s+\d+\s+)?\.[bsuf](8|16|32|64)\s+[\w$%]+\s*(?:\[(\d+)\])?`)

// entryParams returns the byte size of each parameter of .entry name in
// ptx, in order, or nil when the declaration cannot be found.
func entryParams(ptx, name string) []int {
	i := strings.Index(ptx, ".entry "+name+"(")
	if i < 0 {
		return nil
	}
	rest := ptx[i+len(".entry "+name+"("):]
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return nil
	}
	sizes := []int{}
	for _, m := range paramSizeRE().FindAllStringSubmatch(rest[:end], -1) {
		bits, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		sizes = append(sizes, n*bits/8)
	}
	return sizes
}

// checkParams checks a launch's arguments against the kernel's declared
// parameters. The real driver reads one pointer per declared parameter from
// cuLaunchKernel's array and copies each parameter's declared size from it,
// so a wrong count or a short argument would be read out of bounds there;
// the fake refuses it with CUDA_ERROR_INVALID_VALUE.
func checkParams(call string, k *function, params *driver.Params) error {
	if k.params == nil {
		return nil
	}
	n := 0
	if params != nil {
		n = params.Len()
	}
	if n != len(k.params) {
		return invalid(call, "kernel %s declares %d parameters, the launch passes %d", k.name, len(k.params), n)
	}
	for i, size := range k.params {
		if got := len(params.Arg(i)); got != size {
			return invalid(call, "kernel %s parameter %d has %d bytes, the launch passes %d", k.name, i, size, got)
		}
	}
	return nil
}
