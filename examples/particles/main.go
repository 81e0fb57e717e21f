// Particles moves a cloud of particles, kept as a slice of structs in
// device memory, through a few time steps under gravity with a floor that
// bounces them: structs of numbers as kernel data, random initial states
// from cuda/random, and ForAll choosing the launch shape.
package main

//go:generate go tool nugo gen

import (
	"flag"
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/random"
)

// Particle is plain memory: the device sees the host's layout.
type Particle struct {
	Pos, Vel [3]float32
	Bounces  int32
	Alive    bool
}

// spawn gives particle i a random position in the unit cube above the
// floor and a random velocity, from generator i.
func spawn(t cuda.Thread, ps []Particle, states []uint64) {
	i := t.Grid1()
	if i >= len(ps) {
		return
	}
	p := &ps[i]
	for k := range 3 {
		p.Pos[k] = random.Uniform32(states, i)
		p.Vel[k] = random.Uniform32(states, i) - 0.5
	}
	p.Pos[1] += 1
	p.Alive = true
}

// step advances particle i by dt: gravity, then a floor at y = 0 that
// reflects it and loses a fifth of its speed; a particle that has bounced
// limit times comes to rest.
func step(t cuda.Thread, ps []Particle, dt float32, limit int32) {
	i := t.Grid1()
	if i >= len(ps) || !ps[i].Alive {
		return
	}
	p := &ps[i]
	p.Vel[1] -= float32(9.81 * dt)
	for k := range 3 {
		p.Pos[k] += float32(p.Vel[k] * dt)
	}
	if p.Pos[1] < 0 {
		p.Pos[1] = -p.Pos[1]
		p.Vel[1] = float32(-0.8 * p.Vel[1])
		p.Bounces++
		if p.Bounces >= limit {
			p.Alive = false
		}
	}
}

// simulate spawns n particles from seed and runs steps steps of dt on the
// device, returning the particles.
func simulate(n, steps int, dt float32, seed uint64) ([]Particle, error) {
	states, err := random.NewStates(n, seed)
	if err != nil {
		return nil, err
	}
	defer states.Free()
	ps, err := cuda.NewDeviceArray[Particle](n)
	if err != nil {
		return nil, err
	}
	defer ps.Free()
	if err := cuda.Jit(spawn).ForAll(n, ps, states); err != nil {
		return nil, err
	}
	k := cuda.Jit(step)
	for range steps {
		if err := k.ForAll(n, ps, dt, int32(3)); err != nil {
			return nil, err
		}
	}
	return ps.ToHost()
}

func main() {
	n := flag.Int("n", 100000, "particles")
	steps := flag.Int("steps", 200, "time steps of 10 ms")
	flag.Parse()
	ps, err := simulate(*n, *steps, 0.01, 42)
	if err != nil {
		log.Fatal(err)
	}
	alive, bounces := 0, 0
	for _, p := range ps {
		if p.Alive {
			alive++
		}
		bounces += int(p.Bounces)
	}
	fmt.Printf("%d particles after %d steps: %d still moving, %d bounces in all\n", len(ps), *steps, alive, bounces)
}
