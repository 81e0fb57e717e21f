package compiler

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
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
	x, y := int64(le.Uint64(rec[40:])), int64(le.Uint64(rec[48:]))
	unsigned := u32(36)&RecordUnsigned != 0
	switch f.Code {
	case ErrDivide, ErrShift, ErrShape:
		f.Msg = errKinds[f.Code]
	default:
		if format, ok := boundsFormats[f.Code]; ok {
			f.Msg = boundsMessage(format, x, y, unsigned)
			break
		}
		f.Msg = fmt.Sprintf("debug check %d failed (value %d, bound %d)", f.Code, x, y)
	}
	return f, true
}

// boundsFormats are Go's runtime messages for the bounds checks (runtime
// boundsError): [2] is the short form a negative signed x prints.
var boundsFormats = map[int][2]string{
	ErrIndex:      {"index out of range [%x] with length %y", "index out of range [%x]"},
	ErrSliceAlen:  {"slice bounds out of range [:%x] with length %y", "slice bounds out of range [:%x]"},
	ErrSliceAcap:  {"slice bounds out of range [:%x] with capacity %y", "slice bounds out of range [:%x]"},
	ErrSliceB:     {"slice bounds out of range [%x:%y]", "slice bounds out of range [%x:]"},
	ErrSlice3Alen: {"slice bounds out of range [::%x] with length %y", "slice bounds out of range [::%x]"},
	ErrSlice3Acap: {"slice bounds out of range [::%x] with capacity %y", "slice bounds out of range [::%x]"},
	ErrSlice3B:    {"slice bounds out of range [:%x:%y]", "slice bounds out of range [:%x:]"},
	ErrSlice3C:    {"slice bounds out of range [%x:%y:]", "slice bounds out of range [%x::]"},
	ErrConvert:    {"cannot convert slice with length %y to array or pointer to array with length %x", "cannot convert slice with length %y to array or pointer to array with length %x"},
}

// boundsMessage formats a bounds failure as Go's runtime does: x signed
// unless unsigned is set, a negative x with the short format, y signed.
func boundsMessage(format [2]string, x, y int64, unsigned bool) string {
	text := format[0]
	if !unsigned && x < 0 {
		text = format[1]
	}
	xs := strconv.FormatInt(x, 10)
	if unsigned {
		xs = strconv.FormatUint(uint64(x), 10)
	}
	return strings.NewReplacer("%x", xs, "%y", strconv.FormatInt(y, 10)).Replace(text)
}
