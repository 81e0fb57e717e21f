// Package bad holds kernels that run on the CPU backend but cannot
// compile for the GPU (nugo vet's test).
package bad

import "github.com/nugo-dev/nugo/cuda"

func lookup(t cuda.Thread, out []float32) {
	m := map[int]float32{1: 2}
	out[0] = m[1]
}

func grow(t cuda.Thread, out []int32) {
	s := append([]int32(nil), 1)
	out[0] = s[0]
}

func fine(t cuda.Thread, out []int32) {
	out[0] = 1
}

func syncsGrid(t cuda.Thread, out []int32) {
	t.SyncGrid()
	out[0] = 1
}
