package vectorize

import "reflect"

// Apply1 calls a generalized ufunc of one output like g.Apply, and returns
// that output typed: out, err := vectorize.Apply1[float64](mavg, x, 3)
// instead of asserting out[0].(vectorize.Array[float64]). R must be the
// output's element type; a gufunc with several outputs, or another element
// type, is an error.
func Apply1[R Element](g *GUfunc, inputs ...any) (Array[R], error) {
	if n := len(g.lay.outs); n != 1 {
		return Array[R]{}, g.cfg.errorf("Apply1: layout %q has %d outputs; use Apply", g.lay.text, n)
	}
	outs, err := g.Apply(inputs...)
	if err != nil {
		return Array[R]{}, err
	}
	a, ok := outs[0].(Array[R])
	if !ok {
		return Array[R]{}, g.cfg.errorf("Apply1: the output is a %T, not a vectorize.Array[%s]", outs[0], reflect.TypeFor[R]())
	}
	return a, nil
}
