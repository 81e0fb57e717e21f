// Mandelbrot draws the Mandelbrot set, Numba's CUDA example, with Go's
// complex128: a device function iterates z = z*z + c for one pixel, and a
// kernel covers the image with a 2-D grid-stride loop.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"strings"

	"github.com/nugo-dev/nugo/cuda"
)

// escape is the number of iterations after which z = z*z + c, from z = 0,
// leaves the disc of radius 2, or maxIters if it stays (c is in the set).
func escape(c complex128, maxIters int) int {
	z := complex128(0)
	for i := range maxIters {
		z = z*z + c
		if real(z)*real(z)+imag(z)*imag(z) >= 4 {
			return i
		}
	}
	return maxIters
}

// mandelbrot colours image(i, j), the point minX + j*dx + (maxY - i*dy)i,
// by its escape count.
func mandelbrot(t cuda.Thread, image cuda.Array2[uint8], minX, maxX, minY, maxY float64, maxIters int) {
	rows, cols := image.Shape()
	dx, dy := (maxX-minX)/float64(cols), (maxY-minY)/float64(rows)
	x0, y0 := t.Grid2()
	sx, sy := t.GridSize2()
	for i := x0; i < rows; i += sx {
		for j := y0; j < cols; j += sy {
			c := complex(minX+float64(j)*dx, maxY-float64(i)*dy)
			image.Set(i, j, uint8(escape(c, maxIters)))
		}
	}
}

// render computes a rows x cols image of the rectangle [minX, maxX] x
// [minY, maxY] of the complex plane.
func render(rows, cols int, minX, maxX, minY, maxY float64, maxIters int) (cuda.Array2[uint8], error) {
	image := cuda.NewArray2[uint8](rows, cols)
	err := cuda.Jit(mandelbrot).Launch(cuda.Dim2(8, 8), cuda.Dim2(16, 16), image, minX, maxX, minY, maxY, maxIters)
	return image, err
}

// ascii draws the image with one character per pixel, denser for points
// that take longer to escape.
func ascii(image cuda.Array2[uint8], maxIters int) string {
	const shades = " .:-=+*#%@"
	rows, cols := image.Shape()
	var b strings.Builder
	for i := range rows {
		for j := range cols {
			b.WriteByte(shades[int(image.At(i, j))*(len(shades)-1)/maxIters])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func main() {
	const maxIters = 20
	image, err := render(24, 72, -2.0, 1.0, -1.0, 1.0, maxIters)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(ascii(image, maxIters))
}
