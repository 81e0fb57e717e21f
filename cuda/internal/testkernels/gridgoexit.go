package testkernels

import (
	"runtime"

	"github.com/nugo-dev/nugo/cuda"
)

// GridSyncGoexit: every thread of block 2 calls runtime.Goexit between two
// grid barriers that the others meet at.
func GridSyncGoexit(t cuda.Thread, data []int32) {
	i := t.Grid1()
	data[i] = 1
	t.SyncGrid()
	if t.BlockIdx().X == 2 {
		runtime.Goexit()
	}
	t.SyncGrid()
	data[i] = 2
}
