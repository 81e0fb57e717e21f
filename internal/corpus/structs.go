package corpus

import "github.com/nugo-dev/nugo/cuda"

// Slices of structs of numbers: fields read and written in place, whole
// structs loaded and stored (padding and all), arrays and structs nested,
// bools, atomics on a field.

// particle mixes field sizes: Go puts padding after Alive and ID.
type particle struct {
	Pos, Vel [3]float32
	Mass     float64
	Alive    bool
	ID       int16
	Hits     int32
}

// pair has padding after A and after C.
type pair struct {
	A int8
	B float64
	C uint16
}

type wrapper struct {
	P    pair
	N    [2]pair
	Flag bool
}

func structParticles(t cuda.Thread, ps []particle, dt float32) {
	i := t.Grid1()
	if i >= len(ps) {
		return
	}
	p := &ps[i]
	cuda.AtomicAdd(&ps[i%7].Hits, 1)
	if !p.Alive {
		return
	}
	for k := range 3 {
		p.Pos[k] += p.Vel[k] * dt
	}
	p.Mass *= 0.5
	p.Alive = p.ID%3 != 0
}

func structCopy(t cuda.Thread, in, out []wrapper) {
	i := t.Grid1()
	if i >= len(in) {
		return
	}
	w := in[i]
	w.P, w.N[0] = w.N[1], w.P
	w.Flag = !w.Flag
	w.N[1].A = int8(i)
	w.N[1].B += float64(w.N[0].C)
	out[i] = w
	out[i].N[0].C++ // a field of what the whole store just wrote
}

func particles(n int) []particle {
	ps := make([]particle, n)
	f := cycleF32(7 * n)
	for i := range ps {
		ps[i] = particle{
			Pos:   [3]float32{f[7*i], f[7*i+1], f[7*i+2]},
			Vel:   [3]float32{f[7*i+3], f[7*i+4], f[7*i+5]},
			Mass:  float64(f[7*i+6]) * 3,
			Alive: i%5 != 0,
			ID:    int16(i * 37),
		}
	}
	return ps
}

func wrappers(n int) []wrapper {
	ws := make([]wrapper, n)
	v := cycleI64(n)
	for i := range ws {
		x := v[i]
		ws[i] = wrapper{
			P:    pair{A: int8(x), B: float64(x%1000) / 8, C: 7},
			N:    [2]pair{{A: int8(x >> 8), B: float64(x>>20) / 3, C: uint16(x >> 30)}, {A: -1, B: -0.0, C: uint16(i)}},
			Flag: x&1 == 0,
		}
	}
	return ws
}

var structCases = []Case{
	c1("structs/particles", structParticles, func() []any { return []any{particles(n1), float32(0.25)} }),
	c1("structs/copy_whole", structCopy, func() []any { return []any{wrappers(n1), make([]wrapper, n1)} }),
}
