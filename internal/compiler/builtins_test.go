package compiler

import (
	"regexp"
	"testing"
)

const builtinSrc = `package k

import "github.com/nugo-dev/nugo/cuda"

func cp(t cuda.Thread, src, dst []float32, out []int) {
	out[0] = copy(dst, src[1:]) + len(src)
	out[1] = int(src[0])
}

func clr(t cuda.Thread, dst []int16) {
	sh := cuda.SharedArray[int16](t, 64)
	clear(sh)
	clear(dst[2:])
	copy(dst, sh)
}
`

func TestCopyClear(t *testing.T) {
	cases := []struct {
		kernel  string
		want    []string
		notWant []string
	}{
		// Overlap: the direction is chosen at run time; src stays read-only.
		{"cp", []string{`min\.s64`, `setp\.gt\.u64`, `@%p\d+ mov\.b64\s+%rd\d+, -4;`, `ld\.global\.f32`, `st\.global\.f32`, `ld\.global\.nc\.f32`}, []string{`st\.global\.nc`}},
		{"clr", []string{`st\.shared\.u16\s+\[%rd\d+\], 0;`, `st\.global\.u16\s+\[%rd\d+\], 0;`, `ld\.shared\.s16`, `st\.global\.s16`}, nil},
	}
	for _, c := range cases {
		m, err := compileSrc(t, builtinSrc, c.kernel, Target{})
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		for _, w := range c.want {
			if !regexp.MustCompile(w).MatchString(m.PTX) {
				t.Errorf("%s: PTX lacks %q:\n%s", c.kernel, w, m.PTX)
			}
		}
		for _, w := range c.notWant {
			if regexp.MustCompile(w).MatchString(m.PTX) {
				t.Errorf("%s: PTX has %q:\n%s", c.kernel, w, m.PTX)
			}
		}
		assembleAll(t, c.kernel, m)
	}
}
