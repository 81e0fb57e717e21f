package ptxsim

// ptype is a PTX scalar type.
type ptype uint8

const (
	tNone ptype = iota
	tB8
	tB16
	tB32
	tB64
	tU8
	tU16
	tU32
	tU64
	tS8
	tS16
	tS32
	tS64
	tF16
	tF32
	tF64
	tPred
)

var typeNames = map[string]ptype{
	"b8": tB8, "b16": tB16, "b32": tB32, "b64": tB64,
	"u8": tU8, "u16": tU16, "u32": tU32, "u64": tU64,
	"s8": tS8, "s16": tS16, "s32": tS32, "s64": tS64,
	"f16": tF16, "f32": tF32, "f64": tF64, "pred": tPred,
}

// bits is the width of t in bits (1 for predicates).
func (t ptype) bits() int {
	switch t {
	case tB8, tU8, tS8:
		return 8
	case tB16, tU16, tS16, tF16:
		return 16
	case tB32, tU32, tS32, tF32:
		return 32
	case tB64, tU64, tS64, tF64:
		return 64
	case tPred:
		return 1
	}
	return 0
}

func (t ptype) size() int {
	if t == tPred {
		return 1
	}
	return t.bits() / 8
}

func (t ptype) signed() bool  { return t >= tS8 && t <= tS64 }
func (t ptype) isFloat() bool { return t >= tF16 && t <= tF64 }
func (t ptype) isInt() bool   { return t >= tB8 && t <= tS64 }

// String is the PTX spelling, e.g. ".u32".
func (t ptype) String() string {
	for k, v := range typeNames {
		if v == t {
			return "." + k
		}
	}
	return ".?"
}

// space is a PTX state space.
type space uint8

const (
	spGeneric space = iota
	spGlobal
	spShared
	spLocal
	spConst
	spParam // kernel parameters (entry) — read-only buffer of the launch
	spFrame // .param of a .func or call scope: lives in the thread's local stack
	spNone
)

var spaceNames = map[string]space{
	"global": spGlobal, "shared": spShared, "local": spLocal, "const": spConst, "param": spParam,
}

// String is the state space's PTX name.
func (s space) String() string {
	switch s {
	case spGeneric:
		return "generic"
	case spGlobal:
		return "global"
	case spShared:
		return "shared"
	case spLocal:
		return "local"
	case spConst:
		return "const"
	case spParam, spFrame:
		return "param"
	}
	return "?"
}

// Generic address windows. Global allocations live below windowBase; shared,
// local and const memory are reached through generic addresses in these
// windows (cvta adds or removes the window base).
const (
	windowBase   = uint64(1) << 47
	windowSize   = uint64(1) << 36
	sharedWindow = windowBase
	localWindow  = windowBase + windowSize
	constWindow  = windowBase + 2*windowSize
	windowEnd    = windowBase + 3*windowSize
)
