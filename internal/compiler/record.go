package compiler

import (
	"encoding/binary"
	"fmt"
)

// Failure is a filled error record (ErrorSymbol), decoded: the thread whose
// check failed first and what Go's runtime would have said.
type Failure struct {
	Code          int    // ErrIndex, ErrDivide, ...
	Block, Thread [3]int // the failing thread
	Pos           string // file:line:col of the check, "" if unknown
	Msg           string // Go's runtime error message, without "runtime error: "
}

// DecodeRecord decodes the error record of a launch of m, read back after
// the launch; ok is false when no check failed. Every backend that runs
// compiled modules reports failures through it, so they say the same.
func (m *Module) DecodeRecord(rec []byte) (f Failure, ok bool) {
	if len(rec) < ErrorRecordSize {
		return Failure{Code: -1, Msg: fmt.Sprintf("error record of %d bytes, want %d", len(rec), ErrorRecordSize)}, true
	}
	le := binary.LittleEndian
	if le.Uint32(rec) == 0 {
		return Failure{}, false
	}
	u32 := func(off int) int { return int(le.Uint32(rec[off:])) }
	f = Failure{
		Code:   u32(4),
		Block:  [3]int{u32(12), u32(16), u32(20)},
		Thread: [3]int{u32(24), u32(28), u32(32)},
	}
	if site := u32(8); site >= 0 && site < len(m.Sites) {
		f.Pos = m.Sites[site].Pos
	}
	value, bound := int64(le.Uint64(rec[40:])), int64(le.Uint64(rec[48:]))
	switch f.Code {
	case ErrIndex:
		f.Msg = fmt.Sprintf("index out of range [%d] with length %d", value, bound)
	case ErrSlice:
		f.Msg = fmt.Sprintf("slice bounds out of range [%d] with capacity %d", value, bound)
	case ErrDivide, ErrShift, ErrShape:
		f.Msg = errKinds[f.Code]
	default:
		f.Msg = fmt.Sprintf("debug check %d failed (value %d, bound %d)", f.Code, value, bound)
	}
	return f, true
}
