package ptxsim

import (
	"math"
	"math/big"
	"testing"
)

var intTypes = []string{"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"}

func typeBits(ty string) int {
	switch ty[1:] {
	case "8":
		return 8
	case "16":
		return 16
	case "32":
		return 32
	}
	return 64
}

func regW(bits int) int { return max(bits, 16) }

// goConvert is Go's conversion from the integer type st to dt, of register bits.
func goConvert(v uint64, st, dt string) uint64 {
	var x int64
	var u uint64
	switch st {
	case "u8":
		u = uint64(uint8(v))
	case "s8":
		x = int64(int8(v))
		u = uint64(x)
	case "u16":
		u = uint64(uint16(v))
	case "s16":
		u = uint64(int64(int16(v)))
	case "u32":
		u = uint64(uint32(v))
	case "s32":
		u = uint64(int64(int32(v)))
	default:
		u = v
	}
	switch dt {
	case "u8":
		return uint64(uint8(u))
	case "s8":
		return uint64(int64(int8(u)))
	case "u16":
		return uint64(uint16(u))
	case "s16":
		return uint64(int64(int16(u)))
	case "u32":
		return uint64(uint32(u))
	case "s32":
		return uint64(int64(int32(u)))
	}
	return u
}

// satConvert clamps the source value to dt's range.
func satConvert(v uint64, st, dt string) uint64 {
	b := new(big.Int)
	sb := typeBits(st)
	if st[0] == 's' {
		b.SetInt64(sext(v, sb))
	} else {
		b.SetUint64(v & maskOf(sb))
	}
	db := typeBits(dt)
	lo, hi := new(big.Int), new(big.Int)
	if dt[0] == 's' {
		lo.Lsh(big.NewInt(-1), uint(db-1))
		hi.Sub(new(big.Int).Lsh(big.NewInt(1), uint(db-1)), big.NewInt(1))
	} else {
		hi.Sub(new(big.Int).Lsh(big.NewInt(1), uint(db)), big.NewInt(1))
	}
	if b.Cmp(lo) < 0 {
		b = lo
	}
	if b.Cmp(hi) > 0 {
		b = hi
	}
	if b.Sign() < 0 {
		return uint64(b.Int64())
	}
	return b.Uint64()
}

func TestCvtInteger(t *testing.T) {
	for _, st := range intTypes {
		for _, dt := range intTypes {
			sw, dw := regW(typeBits(st)), regW(typeBits(dt))
			var vv [][]uint64
			for _, x := range intEdges(sw) {
				vv = append(vv, []uint64{x})
			}
			st, dt := st, dt
			opCase{inst: "cvt." + dt + "." + st, srcW: []int{sw}, dstW: dw}.check(t, vv, func(v []uint64) uint64 { return goConvert(v[0], st, dt) })
			opCase{inst: "cvt.sat." + dt + "." + st, srcW: []int{sw}, dstW: dw}.check(t, vv, func(v []uint64) uint64 { return satConvert(v[0], st, dt) })
		}
	}
}

func TestCvtFloatToInt(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e-30, 3.7, -3.7, 127.5, 128, -129, 255.9, 256,
		32767.5, 65535.5, 2147483647.0, 2147483648.0, -2147483649.0, 4294967295.5, 9.3e18, -9.3e18, 1.9e19, 1e30,
		math.Inf(1), math.Inf(-1), math.NaN()}
	modes := map[string]func(float64) float64{"rni": math.RoundToEven, "rzi": math.Trunc, "rmi": math.Floor, "rpi": math.Ceil}
	for mode, round := range modes {
		for _, dt := range intTypes {
			db := typeBits(dt)
			lo, hi := 0.0, math.Ldexp(1, db)-1
			if dt[0] == 's' {
				lo, hi = -math.Ldexp(1, db-1), math.Ldexp(1, db-1)-1
			}
			ref := func(x float64) uint64 { // clamp to range, NaN -> 0
				if x != x {
					return 0
				}
				r := round(x)
				if r <= lo {
					r = lo
				}
				if r >= hi {
					if dt == "u64" {
						return math.MaxUint64
					}
					if dt == "s64" {
						return math.MaxInt64
					}
					r = hi
				}
				if dt[0] == 's' {
					return uint64(int64(r)) & maskOf(regW(db))
				}
				return uint64(r)
			}
			var v32, v64 [][]uint64
			for _, x := range vals {
				v32 = append(v32, []uint64{f32b(float32(x))})
				v64 = append(v64, []uint64{f64b(x)})
			}
			round, dt := round, dt
			_ = round
			opCase{inst: "cvt." + mode + "." + dt + ".f32", srcW: []int{32}, dstW: regW(db)}.check(t, v32, func(v []uint64) uint64 {
				return ref(float64(math.Float32frombits(uint32(v[0]))))
			})
			opCase{inst: "cvt." + mode + "." + dt + ".f64", srcW: []int{64}, dstW: regW(db)}.check(t, v64, func(v []uint64) uint64 {
				return ref(math.Float64frombits(v[0]))
			})
		}
	}
}

func TestCvtIntToFloat(t *testing.T) {
	for _, st := range []string{"s32", "u32", "s64", "u64", "s16", "u16"} {
		sw := regW(typeBits(st))
		var vv [][]uint64
		for _, x := range intEdges(sw) {
			vv = append(vv, []uint64{x})
		}
		vv = append(vv, []uint64{16777217 & maskOf(sw)}, []uint64{(1<<53 + 1) & maskOf(sw)}, []uint64{0xffffff7fffffffff & maskOf(sw)})
		exact := func(v uint64) *big.Float {
			if st[0] == 's' {
				return new(big.Float).SetPrec(100).SetInt64(sext(v, sw))
			}
			return new(big.Float).SetPrec(100).SetUint64(v)
		}
		for mode, bm := range bigModes {
			st, bm := st, bm
			opCase{inst: "cvt." + mode + ".f32." + st, srcW: []int{sw}, dstW: 32}.check(t, vv, func(v []uint64) uint64 {
				return f32b(float32(refRound(exact(v[0]), 24, -149, math.MaxFloat32, bm)))
			})
			opCase{inst: "cvt." + mode + ".f64." + st, srcW: []int{sw}, dstW: 64}.check(t, vv, func(v []uint64) uint64 {
				return f64b(refRound(exact(v[0]), 53, -1074, math.MaxFloat64, bm))
			})
		}
	}
}

func TestCvtFloatToFloat(t *testing.T) {
	var v64 [][]uint64
	for _, x := range f64Specials {
		v64 = append(v64, []uint64{f64b(x)})
	}
	for _, x := range []float64{1e-40, 1.4e-45, 7e-46, 3.4028235677973366e38, 3.4028236e38, 1 + 0x1p-24, 1 + 0x1p-24 + 0x1p-50, -(1 + 0x1p-23 + 0x1p-24)} {
		v64 = append(v64, []uint64{f64b(x)})
	}
	for mode, bm := range bigModes {
		bm := bm
		checkFloat(t, opCase{inst: "cvt." + mode + ".f32.f64", srcW: []int{64}, dstW: 32}, v64, func(v []uint64) uint64 {
			x := math.Float64frombits(v[0])
			if math.IsInf(x, 0) || x != x {
				return f32b(float32(x))
			}
			return f32b(float32(refRound(new(big.Float).SetFloat64(x), 24, -149, math.MaxFloat32, bm)))
		})
	}
	var v32 [][]uint64
	for _, x := range f32Specials {
		v32 = append(v32, []uint64{f32b(x)})
	}
	checkFloat(t, opCase{inst: "cvt.f64.f32", srcW: []int{32}, dstW: 64}, v32, func(v []uint64) uint64 {
		return f64b(float64(math.Float32frombits(uint32(v[0]))))
	})
	checkFloat(t, opCase{inst: "cvt.ftz.f64.f32", srcW: []int{32}, dstW: 64}, v32, func(v []uint64) uint64 {
		x := float64(math.Float32frombits(uint32(v[0])))
		if math.Abs(x) < 0x1p-126 {
			x = math.Copysign(0, x)
		}
		return f64b(x)
	})
	for mode, round := range map[string]func(float64) float64{"rni": math.RoundToEven, "rzi": math.Trunc, "rmi": math.Floor, "rpi": math.Ceil} {
		round := round
		checkFloat(t, opCase{inst: "cvt." + mode + ".f32.f32", srcW: []int{32}, dstW: 32}, v32, func(v []uint64) uint64 {
			return f32b(float32(round(float64(math.Float32frombits(uint32(v[0]))))))
		})
		checkFloat(t, opCase{inst: "cvt." + mode + ".f64.f64", srcW: []int{64}, dstW: 64}, v64, func(v []uint64) uint64 {
			return f64b(round(math.Float64frombits(v[0])))
		})
	}
	checkFloat(t, opCase{inst: "cvt.sat.f32.f32", srcW: []int{32}, dstW: 32}, v32, func(v []uint64) uint64 {
		x := math.Float32frombits(uint32(v[0]))
		switch {
		case x != x || x <= 0:
			return 0
		case x > 1:
			return f32b(1)
		}
		return f32b(x)
	})
}
