package random

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

// goldenFile is testdata/numba_golden.json, written by numba_golden.py from
// Numba 0.56.4's numba.cuda.random (compiled by Numba, cross-checked
// against its CUDA simulator). Floats are IEEE bit patterns.
type goldenFile struct {
	Numba  string `json:"numba"`
	Draws  int    `json:"draws"`
	Seeded []struct {
		Seed        uint64               `json:"seed"`
		Subsequence uint64               `json:"subsequence"`
		N           int                  `json:"n"`
		States      [][2]uint64          `json:"states"`
		Draws       map[string]drawsJSON `json:"draws"`
	} `json:"seeded"`
	Custom []struct {
		State [2]uint64 `json:"state"`
		Draws drawsJSON `json:"draws"`
	} `json:"custom"`
}

type drawsJSON struct {
	Next      []uint64 `json:"next"`
	Uniform64 []uint64 `json:"uniform64"`
	Uniform32 []uint32 `json:"uniform32"`
	Normal64  []uint64 `json:"normal64"`
	Normal32  []uint32 `json:"normal32"`
}

func loadGolden(t *testing.T) *goldenFile {
	t.Helper()
	b, err := os.ReadFile("testdata/numba_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("testdata/numba_golden.json: %v", err)
	}
	if len(g.Seeded) == 0 || len(g.Custom) == 0 || g.Draws == 0 {
		t.Fatalf("testdata/numba_golden.json has no cases")
	}
	return &g
}

func TestInitMatchesNumba(t *testing.T) {
	g := loadGolden(t)
	for _, c := range g.Seeded {
		states, err := HostStates(c.N, c.Seed, c.Subsequence)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range c.States {
			if got := [2]uint64{states[2*i], states[2*i+1]}; got != want {
				t.Errorf("seed %d subsequence %d: generator %d = %#x, Numba %#x", c.Seed, c.Subsequence, i, got, want)
			}
		}
	}
}

// Normal ulp bounds against Numba. Numba's compiled normals call the C
// library's logf, cos and cosf; nugo's come from Go's math (Normal64 on the
// CPU) and nugo's device math library (Normal32's logarithm and cosine,
// through math32 on the CPU), each within 2 ulp of the exact value.
const (
	normal64ULP = 2
	normal32ULP = 2
)

// Normal64 takes the logarithm of a float32 uniform in float32, as Numba
// does; nugo's is correctly rounded (the float64 logarithm rounded),
// glibc's logf is not always (it is within 0.82 ulp), and one float32 ulp
// in the logarithm moves the float64 result by about 2^29 ulps. So a
// Normal64 that misses Numba's is accepted when the same formula with a
// logarithm one float32 ulp away hits it, and such cases must stay rare.
const maxLogfDisagreements = 4

// normalStats sums up how close the normals came to Numba's.
type normalStats struct {
	logfOff      int    // Normal64 values that matched only with Numba's logarithm 1 ulp off nugo's
	max64, max32 uint64 // the largest distances in ulp otherwise
	exact, total int    // normals of both widths bit-identical to Numba's, and all
}

// checkDraws compares every kind of draw from generator i of states (each
// kind from a fresh copy) with Numba's, adding to st.
func checkDraws(t *testing.T, name string, states []uint64, i int, want drawsJSON, st *normalStats) {
	t.Helper()
	fresh := func() []uint64 { return append([]uint64(nil), states...) }
	s := fresh()
	for k, w := range want.Next {
		if got := Next(s, i); got != w {
			t.Errorf("%s: Next #%d = %d, Numba %d", name, k, got, w)
		}
	}
	s = fresh()
	for k, w := range want.Uniform64 {
		if got := Uniform64(s, i); math.Float64bits(got) != w {
			t.Errorf("%s: Uniform64 #%d = %v, Numba %v", name, k, got, math.Float64frombits(w))
		}
	}
	s = fresh()
	for k, w := range want.Uniform32 {
		if got := Uniform32(s, i); math.Float32bits(got) != w {
			t.Errorf("%s: Uniform32 #%d = %v, Numba %v", name, k, got, math.Float32frombits(w))
		}
	}
	s, u := fresh(), fresh()
	for k, w := range want.Normal64 {
		got, wf := Normal64(s, i), math.Float64frombits(w)
		u1, u2 := Uniform32(u, i), Uniform32(u, i)
		st.total++
		if d := ulps64(got, wf); d <= normal64ULP {
			st.max64 = max(st.max64, d)
			if d == 0 {
				st.exact++
			}
			continue
		}
		log1 := float32(math.Log(float64(u1)))
		hit := false
		for _, l := range []float32{math.Nextafter32(log1, -1), math.Nextafter32(log1, 1)} {
			if alt := math.Sqrt(-2*float64(l)) * math.Cos(twoPi64*float64(u2)); ulps64(alt, wf) <= normal64ULP {
				hit = true
			}
		}
		if !hit {
			t.Errorf("%s: Normal64 #%d = %v, Numba %v (%d ulp apart; at most %d, or the same with a logarithm 1 float32 ulp away)",
				name, k, got, wf, ulps64(got, wf), normal64ULP)
		}
		st.logfOff++
	}
	s = fresh()
	for k, w := range want.Normal32 {
		got, wf := Normal32(s, i), math.Float32frombits(w)
		d := ulps32(got, wf)
		st.total++
		st.max32 = max(st.max32, d)
		if d == 0 {
			st.exact++
		}
		if d > normal32ULP {
			t.Errorf("%s: Normal32 #%d = %v, Numba %v (%d ulp apart; at most %d)", name, k, got, wf, d, normal32ULP)
		}
	}
}

func TestDrawsMatchNumba(t *testing.T) {
	g := loadGolden(t)
	var st normalStats
	for _, c := range g.Seeded {
		states := make([]uint64, 0, 2*len(c.States))
		for _, s := range c.States {
			states = append(states, s[0], s[1])
		}
		for gen, want := range c.Draws {
			i, err := strconv.Atoi(gen)
			if err != nil {
				t.Fatal(err)
			}
			checkDraws(t, "seed "+strconv.FormatUint(c.Seed, 10)+" subsequence "+strconv.FormatUint(c.Subsequence, 10)+" generator "+gen, states, i, want, &st)
		}
	}
	for _, c := range g.Custom {
		checkDraws(t, "state "+strconv.FormatUint(c.State[0], 16)+","+strconv.FormatUint(c.State[1], 16), c.State[:], 0, c.Draws, &st)
	}
	if st.logfOff > maxLogfDisagreements {
		t.Errorf("%d Normal64 values matched Numba's only with its logarithm 1 ulp off; at most %d expected", st.logfOff, maxLogfDisagreements)
	}
	t.Logf("normals: %d of %d bit-identical to Numba's; Normal64 at most %d ulp away (%d more matched with Numba's float32 logarithm 1 ulp off nugo's correctly rounded one), Normal32 at most %d ulp",
		st.exact, st.total, st.max64, st.logfOff, st.max32)
}

// ulps64 is the number of float64 values between a and b (both finite or
// equal infinities); it is huge when they differ in sign.
func ulps64(a, b float64) uint64 {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.Signbit(a) != math.Signbit(b) {
		return math.MaxUint64
	}
	x, y := math.Float64bits(math.Abs(a)), math.Float64bits(math.Abs(b))
	if x > y {
		return x - y
	}
	return y - x
}

// ulps32 is ulps64 for float32.
func ulps32(a, b float32) uint64 {
	if a == b || (a != a && b != b) {
		return 0
	}
	fa, fb := float64(a), float64(b)
	if math.IsNaN(fa) || math.IsNaN(fb) || math.IsInf(fa, 0) || math.IsInf(fb, 0) || math.Signbit(fa) != math.Signbit(fb) {
		return math.MaxUint64
	}
	x, y := uint64(math.Float32bits(a)&0x7fffffff), uint64(math.Float32bits(b)&0x7fffffff)
	if x > y {
		return x - y
	}
	return y - x
}
