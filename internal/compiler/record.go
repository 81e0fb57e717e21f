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
	head := le.Uint32(rec)
	if head == 0 {
		return Failure{}, false
	}
	by, tid := le.Uint32(rec[8:]), le.Uint32(rec[12:])
	f = Failure{
		Code:   int(head & 0xff),
		Block:  [3]int{int(le.Uint32(rec[4:])), int(by & 0xffff), int(by >> 16)},
		Thread: [3]int{int(tid & 0x3ff), int(tid >> 10 & 0x3ff), int(tid >> 20)},
	}
	if site := int(head >> 12); site < len(m.Sites) {
		f.Pos = m.Sites[site].Pos
	}
	var v [RecordValues]int64
	for i := range v {
		v[i] = int64(le.Uint64(rec[16+8*i:]))
	}
	unsigned := head>>8&RecordUnsigned != 0
	switch f.Code {
	case ErrDivide, ErrShift:
		f.Msg = errKinds[f.Code]
	case ErrPanic:
		if site := int(head >> 12); site < len(m.Sites) {
			f.Msg = m.Sites[site].Msg
		}
	case ErrShape2:
		f.Msg = fmt.Sprintf("MustView2: %d elements cannot be viewed as %d×%d", v[0], v[1], v[2])
	case ErrShape3:
		f.Msg = fmt.Sprintf("MustView3: %d elements cannot be viewed as %d×%d×%d", v[0], v[1], v[2], v[3])
	case ErrIndex2:
		f.Msg = fmt.Sprintf("index (%d,%d) out of range for shape (%d,%d)", v[0], v[1], v[2], v[3])
	case ErrGridExit:
		f.Msg = fmt.Sprintf(GridExitMsg, v[0], v[1], v[2])
	case ErrWarpMask:
		f.Msg = fmt.Sprintf(WarpMaskMsg, uint64(v[0]), v[1])
	case ErrIndex3:
		f.Msg = fmt.Sprintf("index (%d,%d,%d) out of range for shape (%d,%d,%d)", v[0], v[1], v[2], v[3], v[4], v[5])
	default:
		if format, ok := boundsFormats[f.Code]; ok {
			f.Msg = boundsMessage(format, v[0], v[1], unsigned)
			break
		}
		f.Msg = fmt.Sprintf("debug check %d failed (value %d, bound %d)", f.Code, v[0], v[1])
	}
	return f, true
}

// EncodeRecord returns the record that a check of code at site fills in
// when it fails in thread thread of block block, with values vals (at most
// RecordValues; unsigned: the first is of unsigned type): what the
// compiled code writes, for tests and fake devices.
func EncodeRecord(code, site int, unsigned bool, block, thread [3]int, vals ...int64) []byte {
	rec := make([]byte, ErrorRecordSize)
	le := binary.LittleEndian
	head := uint32(code) | uint32(site)<<12
	if unsigned {
		head |= RecordUnsigned << 8
	}
	le.PutUint32(rec, head)
	le.PutUint32(rec[4:], uint32(block[0]))
	le.PutUint32(rec[8:], uint32(block[1])|uint32(block[2])<<16)
	le.PutUint32(rec[12:], uint32(thread[0])|uint32(thread[1])<<10|uint32(thread[2])<<20)
	for i, v := range vals[:min(len(vals), RecordValues)] {
		le.PutUint64(rec[16+8*i:], uint64(v))
	}
	return rec
}

// boundsFormats are Go's runtime messages for the bounds checks (runtime
// boundsError): [1] is the short form a negative signed x prints.
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
