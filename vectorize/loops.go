package vectorize

// The inner loops of the CPU and Parallel targets: n elements of out from
// offset o, operand k from offset ok stepping by sk (0 or 1). The common
// cases (every operand contiguous; some broadcast) are separate loops so
// that the compiler sees plain indexing and hoists broadcast values. A
// function with a compiled loop (registry.go) runs the contiguous case
// there instead, with its call inlined.

func loop1[T, R any](f func(T) R, out []R, a []T, o, oa, sa, n int) {
	out = out[o : o+n]
	if sa == 1 {
		a := a[oa : oa+n]
		for i := range out {
			out[i] = f(a[i])
		}
		return
	}
	x := a[oa]
	for i := range out {
		out[i] = f(x)
	}
}

func loop2[T, U, R any](f func(T, U) R, out []R, a []T, b []U, o, oa, ob, sa, sb, n int) {
	out = out[o : o+n]
	switch {
	case sa == 1 && sb == 1:
		a, b := a[oa:oa+n], b[ob:ob+n]
		for i := range out {
			out[i] = f(a[i], b[i])
		}
	case sa == 0 && sb == 1:
		x, b := a[oa], b[ob:ob+n]
		for i := range out {
			out[i] = f(x, b[i])
		}
	case sa == 1 && sb == 0:
		a, y := a[oa:oa+n], b[ob]
		for i := range out {
			out[i] = f(a[i], y)
		}
	default:
		x, y := a[oa], b[ob]
		for i := range out {
			out[i] = f(x, y)
		}
	}
}

func loop3[T, U, V, R any](f func(T, U, V) R, out []R, a []T, b []U, c []V, o, oa, ob, oc, sa, sb, sc, n int) {
	out = out[o : o+n]
	if sa == 1 && sb == 1 && sc == 1 {
		a, b, c := a[oa:oa+n], b[ob:ob+n], c[oc:oc+n]
		for i := range out {
			out[i] = f(a[i], b[i], c[i])
		}
		return
	}
	for i := range out {
		out[i] = f(a[oa], b[ob], c[oc])
		oa, ob, oc = oa+sa, ob+sb, oc+sc
	}
}

func loop4[T, U, V, W, R any](f func(T, U, V, W) R, out []R, a []T, b []U, c []V, d []W, o, oa, ob, oc, od, sa, sb, sc, sd, n int) {
	out = out[o : o+n]
	if sa == 1 && sb == 1 && sc == 1 && sd == 1 {
		a, b, c, d := a[oa:oa+n], b[ob:ob+n], c[oc:oc+n], d[od:od+n]
		for i := range out {
			out[i] = f(a[i], b[i], c[i], d[i])
		}
		return
	}
	for i := range out {
		out[i] = f(a[oa], b[ob], c[oc], d[od])
		oa, ob, oc, od = oa+sa, ob+sb, oc+sc, od+sd
	}
}
