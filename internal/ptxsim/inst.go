package ptxsim

// opcode is the pre-decoded operation; the executor switches over it.
type opcode uint8

const (
	opNop opcode = iota
	opMov
	opMovPack   // mov.bN d, {a, b, ...}
	opMovUnpack // mov.bN {a, b, ...}, s
	opMovFrame  // d = frame base + off (address of a .local/.param variable of the function)
	opClock

	// integer arithmetic, any width: results masked with in.mask, signed
	// operands sign-extended with shift in.sh (64 - width)
	opAdd
	opSub
	opMulLo
	opMulHi
	opMulWide
	opMadLo
	opMadHi
	opMadWide
	opMul24
	opMad24
	opSad
	opDiv
	opRem
	opMin
	opMax
	opAbs
	opNeg
	opAnd
	opOr
	opXor
	opNot
	opCnot
	opShl
	opShr
	opClz
	opPopc
	opBrev
	opBfe
	opBfi
	opPrmt

	// float fast paths (round to nearest, no ftz/sat)
	opAddF32
	opSubF32
	opMulF32
	opFmaF32
	opDivF32
	opAddF64
	opSubF64
	opMulF64
	opFmaF64
	opDivF64
	opFloat // every other float operation: in.fop says which

	opSetp
	opSetpF32
	opSetpF64
	opSet
	opSelp
	opSlct
	opCvtII // integer to integer without saturation
	opCvt   // every other conversion
	opCvta

	opLd
	opSt
	opAtom
	opBra
	opBar
	opBarRed // bar.red: fop is the reduction (red* below)
	opYield  // nanosleep: lets other blocks run (see launchState.yield)
	opExit
	opRet
	opTrap
	opCall
	opVprintf
	opShfl     // shfl.sync: fop is the mode (shfl* in warp.go)
	opVote     // vote.sync: fop is the mode (vote* in warp.go)
	opWarpSync // bar.warp.sync
	opMatch    // match.sync: fop is the mode (match* in warp.go), ty .b32 or .b64
	opHalf     // add/sub/mul/fma .rn.f16: fop is fAdd, fSub, fMul or fFma (internal/half)
	opSetpF16  // setp.<cmp>.f16
	opCvtHalf  // cvt between .f16 and .f32/.f64: fop is a cvtH* below
	opBraCond  // a conditional bra, in modules that track divergence (diverge.go): guard in a, its xor in fop, join pc in off
	opJoin     // a reconvergence point (diverge.go)
)

// conversions of opCvtHalf
const (
	cvtHToF32 uint8 = iota // cvt.f32.f16
	cvtHToF64              // cvt.f64.f16
	cvtF32ToH              // cvt.rn.f16.f32
	cvtF64ToH              // cvt.rn.f16.f64
)

// reductions of opBarRed
const (
	redPopc uint8 = iota
	redAnd
	redOr
)

// float sub-operations of opFloat
const (
	fAdd uint8 = iota
	fSub
	fMul
	fFma
	fDiv
	fMin
	fMax
	fAbs
	fNeg
	fSqrt
	fRcp
	fRsqrt
	fEx2
	fLg2
	fSin
	fCos
	fTanh
	fCopysign
	fTestp
)

// rounding modes
const (
	rnDefault uint8 = iota
	rnRN
	rnRZ
	rnRM
	rnRP
	rnRNI
	rnRZI
	rnRMI
	rnRPI
)

// comparison operators
const (
	cmpEQ uint8 = iota
	cmpNE
	cmpLT
	cmpLE
	cmpGT
	cmpGE
	cmpLO
	cmpLS
	cmpHI
	cmpHS
	cmpEQU
	cmpNEU
	cmpLTU
	cmpLEU
	cmpGTU
	cmpGEU
	cmpNUM
	cmpNAN
)

var cmpNames = map[string]uint8{
	"eq": cmpEQ, "ne": cmpNE, "lt": cmpLT, "le": cmpLE, "gt": cmpGT, "ge": cmpGE,
	"lo": cmpLO, "ls": cmpLS, "hi": cmpHI, "hs": cmpHS,
	"equ": cmpEQU, "neu": cmpNEU, "ltu": cmpLTU, "leu": cmpLEU, "gtu": cmpGTU, "geu": cmpGEU,
	"num": cmpNUM, "nan": cmpNAN,
}

// boolean combiners of setp/set
const (
	bopNone uint8 = iota
	bopAnd
	bopOr
	bopXor
)

// atomic operations
const (
	atAdd uint8 = iota
	atMin
	atMax
	atExch
	atCas
	atAnd
	atOr
	atXor
	atInc
	atDec
)

// testp classes
const (
	tpFinite uint8 = iota
	tpInfinite
	tpNumber
	tpNotANumber
	tpNormal
	tpSubnormal
)

// instruction flags
const (
	flFtz      = 1 << iota
	flSat      // .sat
	flApprox   // .approx / .full
	flSigned   // signed integer semantics (operation type or cvt source)
	flSigned2  // cvt destination signed
	flVolatile // ld/st .volatile (no effect)
	flTo       // cvta.to
	flNoRet    // red: no destination
	flIntDst   // set: integer destination
	flRegAddr  // address has a base register (else absolute)
	flHiHalf   // mul24.hi
	flF32Src   // slct/set: float comparison source
	flF64Src   //
	flOrdered  // ld/st .volatile/.relaxed/.acquire/.release: a host atomic access
	flNegSrc   // vote, bar.red: the predicate source is negated (!p)
)

// inst is one decoded instruction. Register operands are indices into the
// thread's register file; immediates live in constant slots of the same file,
// so every operand is a register index.
type inst struct {
	op    opcode
	ty    ptype // operation type
	ty2   ptype // cvt source type, setp/slct comparison type
	sh    uint8 // 64 - bit width of ty
	sh2   uint8 // 64 - bit width of ty2
	rnd   uint8
	cmp   uint8
	bop   uint8
	fop   uint8 // opFloat sub-op, opAtom op, testp class
	sp    space
	vec   uint8 // vector length of ld/st (1, 2, 4)
	flags uint16
	g     int32  // guard predicate register; slotTrue when unguarded
	gx    uint64 // xor applied to the guard (1 for @!p)
	d     int32
	d2    int32 // second destination (setp p|q), -1 if none
	a     int32
	b     int32
	c     int32
	e     int32 // fourth source (bfi len, setp/set/selp predicate c)
	v     [4]int32
	off   int64 // address offset; opMovFrame/opCvta constant
	tgt   int32 // branch target pc, call index
	mask  uint64
	line  int32
	text  string // source text for errors
}
