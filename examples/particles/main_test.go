package main

import (
	"testing"

	"github.com/nugo-dev/nugo/cuda/random"
)

// The device's particles equal the same steps done in plain Go on the
// host, from the same generators: field for field, bit for bit.
func TestParticlesMatchHost(t *testing.T) {
	const n, steps, dt = 2000, 120, float32(0.01)
	got, err := simulate(n, steps, dt, 42)
	if err != nil {
		t.Fatal(err)
	}
	states, err := random.HostStates(n, 42, 0)
	if err != nil {
		t.Fatal(err)
	}
	bounced := 0
	for i := range n {
		var p Particle
		for k := range 3 {
			p.Pos[k] = random.Uniform32(states, i)
			p.Vel[k] = random.Uniform32(states, i) - 0.5
		}
		p.Pos[1] += 1
		p.Alive = true
		for range steps {
			if !p.Alive {
				break
			}
			p.Vel[1] -= float32(9.81 * dt)
			for k := range 3 {
				p.Pos[k] += float32(p.Vel[k] * dt)
			}
			if p.Pos[1] < 0 {
				p.Pos[1] = -p.Pos[1]
				p.Vel[1] = float32(-0.8 * p.Vel[1])
				p.Bounces++
				p.Alive = p.Bounces < 3
			}
		}
		if got[i] != p {
			t.Fatalf("particle %d = %+v, want %+v", i, got[i], p)
		}
		if p.Bounces > 0 {
			bounced++
		}
	}
	if bounced == 0 {
		t.Error("no particle reached the floor: the test does not exercise the bounce")
	}
}
