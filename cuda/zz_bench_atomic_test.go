package cuda

import "testing"

type benchCount int32

func BenchmarkAtomicDispatch(b *testing.B) {
	var i32 int32
	var f32 float32
	var f64 float64
	var c benchCount
	var h [2]Float16
	one := F16(0)
	b.Run("int32", func(b *testing.B) {
		for b.Loop() {
			AtomicAdd(&i32, 1)
		}
	})
	b.Run("float32", func(b *testing.B) {
		for b.Loop() {
			AtomicAdd(&f32, 1)
		}
	})
	b.Run("maxf64", func(b *testing.B) {
		for b.Loop() {
			AtomicMax(&f64, 1)
		}
	})
	b.Run("defined", func(b *testing.B) {
		for b.Loop() {
			AtomicAdd(&c, 1)
		}
	})
	b.Run("cas", func(b *testing.B) {
		for b.Loop() {
			AtomicCAS(&i32, 5, 5)
		}
	})
	b.Run("half", func(b *testing.B) {
		for b.Loop() {
			AtomicAdd(&h[1], one)
		}
	})
}
