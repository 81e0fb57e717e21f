package corpus

import "github.com/nugo-dev/nugo/cuda"

// Read-only tables of more than one dimension and of structs (Numba's
// cuda.const.array_like of n-d and record arrays): package-level arrays
// initialised with constants, emitted as initialised global data in Go's
// layout, indexed with the thread's index.

var tableGrid = [10][10]int32{
	{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
	{-1, -2, -3, -4, -5, -6, -7, -8, -9, -10},
	{1 << 30, -1 << 31, 0, 7},
	3: {9: 99},
	{5, 4, 3, 2, 1},
	9: {0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
}

var tableCube = [5][5][5]complex64{
	{{1, 2i, 3 + 4i, -1, 0.5}, {1i}, {}, {2, 2, 2, 2, 2}, {-1i, 1i}},
	{{7}, {0, 0, 0, 0, 1e30}},
	2: {4: {1, 2, 3, 4, 5}},
	4: {{-2.5 - 0.25i}, 4: {4: 9i}},
}

// record has padding after A, after C and after On.
type record struct {
	A  int8
	B  float64
	C  [2]int16
	D  complex64
	On bool
}

var tableRecords = [4]record{
	{A: 1, B: 2.5, C: [2]int16{3, -4}, D: 1i, On: true},
	{B: -1e300},
	3: {-7, 0.125, [2]int16{32767, -32768}, 2 - 3i, true},
}

func tableGridSum(t cuda.Thread, idx []int64, out []int64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	r := idx[i] & 7
	c := (idx[i] >> 3) % 10
	if c < 0 {
		c = -c
	}
	var sum int64
	for _, v := range tableGrid[r] {
		sum += int64(v)
	}
	row := tableGrid[(r+2)%10] // a whole row loaded
	out[i] = sum*1000 + int64(tableGrid[r][c]) + int64(row[9-c])
}

func tableCubeProduct(t cuda.Thread, out []complex64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	a, b, c := i%5, i/5%5, i/25%5
	out[i] = tableCube[a][b][c]*tableCube[c][b][a] + tableCube[b][a][c]
}

func tableRecordFields(t cuda.Thread, out []float64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	rec := tableRecords[i%4] // a whole record loaded
	v := rec.B + float64(rec.A) + float64(real(rec.D))*2 - float64(imag(rec.D))
	if tableRecords[(i+1)%4].On {
		v += float64(tableRecords[(i+1)%4].C[i%2])
	}
	out[i] = v
}

var tableCases = []Case{
	c1("tables/grid", tableGridSum, func() []any { return []any{cycleI64(n1), make([]int64, n1)} }),
	c1("tables/cube", tableCubeProduct, func() []any { return []any{make([]complex64, n1)} }),
	c1("tables/records", tableRecordFields, func() []any { return []any{make([]float64, n1)} }),
}
