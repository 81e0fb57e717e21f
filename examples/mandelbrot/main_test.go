package main

import (
	"strings"
	"testing"
)

// TestMandelbrot: every pixel's count is what Go computes for it on the
// host (complex arithmetic is Go's, bit for bit, on every backend), the
// origin is in the set and points beyond radius 2 escape at once.
func TestMandelbrot(t *testing.T) {
	const rows, cols, maxIters = 90, 120, 200
	const minX, maxX, minY, maxY = -2.0, 1.0, -1.0, 1.0
	image, err := render(rows, cols, minX, maxX, minY, maxY, maxIters)
	if err != nil {
		t.Fatal(err)
	}
	dx, dy := (maxX-minX)/float64(cols), (maxY-minY)/float64(rows)
	inside := 0
	for i := range rows {
		for j := range cols {
			c := complex(minX+float64(j)*dx, maxY-float64(i)*dy)
			if got, want := int(image.At(i, j)), escape(c, maxIters); got != want {
				t.Fatalf("pixel (%d,%d) = %d, want %d", i, j, got, want)
			}
			if image.At(i, j) == maxIters {
				inside++
			}
		}
	}
	// The set's area is about 1.5 of the 6 the image covers.
	if frac := float64(inside) / (rows * cols); frac < 0.2 || frac > 0.3 {
		t.Errorf("%.3f of the pixels are in the set, want about a quarter", frac)
	}
	if got := escape(0, maxIters); got != maxIters {
		t.Errorf("escape(0) = %d, want %d (in the set)", got, maxIters)
	}
	if got := escape(complex(2, 2), maxIters); got != 0 {
		t.Errorf("escape(2+2i) = %d, want 0", got)
	}
}

func TestASCII(t *testing.T) {
	image, err := render(12, 30, -2.0, 1.0, -1.0, 1.0, 20)
	if err != nil {
		t.Fatal(err)
	}
	art := ascii(image, 20)
	if lines := strings.Split(strings.TrimSuffix(art, "\n"), "\n"); len(lines) != 12 || len(lines[0]) != 30 {
		t.Fatalf("ascii art is %d lines of %d, want 12 of 30:\n%s", len(lines), len(lines[0]), art)
	}
	if !strings.Contains(art, "@") || !strings.Contains(art, " ") {
		t.Errorf("ascii art lacks the set (@) or the outside ( ):\n%s", art)
	}
}
