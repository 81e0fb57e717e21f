package cuda

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// Printf prints from a kernel, as CUDA's printf does. The format uses Go's
// fmt verbs (%d %x %X %o %c %e %E %f %F %g %G %v %t %s %%, with flags, width
// and precision); the arguments are numbers, bools and constant strings.
// Each call's output is written at once, so lines from different threads
// do not interleave. On a GPU the output appears at the next
// synchronization point, as with CUDA.
func Printf(format string, args ...any) {
	printer.Lock()
	defer printer.Unlock()
	fmt.Fprintf(printer.w, format, args...)
}

// printer is where kernels print; tests redirect it.
var printer = struct {
	sync.Mutex
	w io.Writer
}{w: os.Stdout}
