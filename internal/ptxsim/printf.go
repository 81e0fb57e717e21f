package ptxsim

import (
	"fmt"
	"math"
	"strings"
)

// maxPrintfString bounds the strings vprintf reads from device memory.
const maxPrintfString = 1 << 16

// vprintf implements CUDA's device printf: the first argument is the
// generic address of a NUL-terminated C format string, the second the
// generic address of the argument buffer, in which every argument is
// aligned to its own size (int: 4 bytes; long long, double and pointers: 8).
func (t *thread) vprintf(in *inst, regs []uint64) bool {
	ci := &t.fn.calls[in.tgt]
	get := func(a argRef) uint64 {
		if a.isReg {
			return regs[a.reg]
		}
		return loadN(t.stack[t.fb+a.off:], 8)
	}
	fmtAddr, bufAddr := get(ci.args[0]), get(ci.args[1])
	format, ok := t.cString(in, fmtAddr)
	if !ok {
		return false
	}
	off := uint64(0)
	var failed bool
	arg := func(size int) uint64 {
		if failed {
			return 0
		}
		off = (off + uint64(size) - 1) / uint64(size) * uint64(size)
		if bufAddr == 0 {
			t.fault(in, 0, false, "vprintf: format %q needs arguments but the argument buffer is null", format)
			failed = true
			return 0
		}
		mem := t.access(in, spGeneric, bufAddr+off, size, false)
		if mem == nil {
			failed = true
			return 0
		}
		off += uint64(size)
		return loadN(mem, size)
	}
	str := func(addr uint64) string {
		if addr == 0 {
			return "(null)"
		}
		s, ok := t.cString(in, addr)
		if !ok {
			failed = true
		}
		return s
	}
	out := formatC(format, arg, str)
	if failed {
		return false
	}
	ls := t.w.ls
	if ls.out != nil {
		ls.outMu.Lock()
		_, _ = ls.out.Write([]byte(out))
		ls.outMu.Unlock()
	}
	if len(ci.rets) == 1 {
		r := ci.rets[0]
		if r.isReg {
			if r.reg >= 0 {
				regs[r.reg] = uint64(uint32(len(out)))
			}
		} else {
			storeN(t.stack[t.fb+r.off:], 4, uint64(len(out)))
		}
	}
	return true
}

// cString reads a NUL-terminated string at a generic address.
func (t *thread) cString(in *inst, addr uint64) (string, bool) {
	var sb strings.Builder
	for i := 0; i < maxPrintfString; i++ {
		b := t.access(in, spGeneric, addr+uint64(i), 1, false)
		if b == nil {
			return "", false
		}
		if b[0] == 0 {
			return sb.String(), true
		}
		sb.WriteByte(b[0])
	}
	t.fault(in, addr, true, "vprintf: string longer than %d bytes", maxPrintfString)
	return "", false
}

// formatC formats a C printf format; arg fetches the next argument of a
// given byte size from the argument buffer, str reads a string argument.
func formatC(format string, arg func(size int) uint64, str func(addr uint64) string) string {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' {
			sb.WriteByte(ch)
			continue
		}
		start := i
		i++
		if i < len(format) && format[i] == '%' {
			sb.WriteByte('%')
			continue
		}
		var flags []byte
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			flags = append(flags, format[i])
			i++
		}
		width, prec := -1, -1
		if i < len(format) && format[i] == '*' {
			width = int(int32(arg(4)))
			if width < 0 {
				flags = append(flags, '-')
				width = -width
			}
			i++
		} else {
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				width = max(width, 0)*10 + int(format[i]-'0')
				i++
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			prec = 0
			if i < len(format) && format[i] == '*' {
				prec = int(int32(arg(4)))
				i++
			} else {
				for i < len(format) && format[i] >= '0' && format[i] <= '9' {
					prec = prec*10 + int(format[i]-'0')
					i++
				}
			}
		}
		length := ""
		for i < len(format) && strings.IndexByte("hlLqjzt", format[i]) >= 0 {
			length += string(format[i])
			i++
		}
		if i >= len(format) {
			sb.WriteString(format[start:])
			break
		}
		conv := format[i]
		long := length == "l" || length == "ll" || length == "q" || length == "j" || length == "z" || length == "t"
		spec := func(verb byte, fl []byte) string {
			s := "%" + string(fl)
			if width >= 0 {
				s += fmt.Sprint(width)
			}
			if prec >= 0 {
				s += "." + fmt.Sprint(prec)
			}
			return s + string(verb)
		}
		switch conv {
		case 'd', 'i':
			var v int64
			if long {
				v = int64(arg(8))
			} else {
				v = int64(int32(arg(4)))
				switch length {
				case "h":
					v = int64(int16(v))
				case "hh":
					v = int64(int8(v))
				}
			}
			sb.WriteString(fmt.Sprintf(spec('d', without(flags, '#')), v))
		case 'u', 'x', 'X', 'o':
			var v uint64
			if long {
				v = arg(8)
			} else {
				v = uint64(uint32(arg(4)))
				switch length {
				case "h":
					v = uint64(uint16(v))
				case "hh":
					v = uint64(uint8(v))
				}
			}
			fl := without(flags, '+', ' ')
			verb := conv
			if conv == 'u' {
				verb = 'd'
				fl = without(fl, '#')
			}
			if v == 0 && (conv == 'x' || conv == 'X') {
				fl = without(fl, '#')
			}
			sb.WriteString(fmt.Sprintf(spec(verb, fl), v))
		case 'c':
			v := byte(arg(4))
			prec = -1
			sb.WriteString(fmt.Sprintf(spec('s', without(flags, '0', '#', '+', ' ')), string([]byte{v})))
		case 's':
			s := str(arg(8))
			sb.WriteString(fmt.Sprintf(spec('s', without(flags, '0', '#', '+', ' ')), s))
		case 'p':
			v := arg(8)
			p := prec
			prec = -1
			s := fmt.Sprintf("0x%x", v)
			_ = p
			sb.WriteString(fmt.Sprintf(spec('s', without(flags, '0', '#', '+', ' ')), s))
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			v := math.Float64frombits(arg(8))
			upper := conv == 'F' || conv == 'E' || conv == 'G' || conv == 'A'
			if math.IsInf(v, 0) || v != v {
				s := "inf"
				if v != v {
					s = "nan"
				}
				if upper {
					s = strings.ToUpper(s)
				}
				switch {
				case math.Signbit(v) && v == v || v != v && math.Signbit(v):
					s = "-" + s
				case hasFlag(flags, '+'):
					s = "+" + s
				case hasFlag(flags, ' '):
					s = " " + s
				}
				prec = -1
				sb.WriteString(fmt.Sprintf(spec('s', without(flags, '0', '#', '+', ' ')), s))
				continue
			}
			if conv == 'a' || conv == 'A' {
				verb := byte('x')
				if upper {
					verb = 'X'
				}
				s := fmt.Sprintf(spec(verb, flags), v)
				sb.WriteString(fixHexExp(s))
				continue
			}
			if prec < 0 {
				prec = 6
			}
			verb := conv
			if conv == 'F' {
				verb = 'f'
			}
			if (conv == 'g' || conv == 'G') && prec == 0 {
				prec = 1
			}
			sb.WriteString(fmt.Sprintf(spec(verb, flags), v))
		case 'n':
			arg(8)
		default:
			sb.WriteString(format[start : i+1])
		}
	}
	return sb.String()
}

func hasFlag(flags []byte, f byte) bool {
	for _, c := range flags {
		if c == f {
			return true
		}
	}
	return false
}

func without(flags []byte, drop ...byte) []byte {
	var out []byte
	for _, c := range flags {
		keep := true
		for _, d := range drop {
			if c == d {
				keep = false
			}
		}
		if keep {
			out = append(out, c)
		}
	}
	return out
}

// fixHexExp turns Go's "p+01" exponent into C's "p+1".
func fixHexExp(s string) string {
	i := strings.LastIndexAny(s, "pP")
	if i < 0 || i+2 >= len(s) {
		return s
	}
	j := i + 2
	for j < len(s)-1 && s[j] == '0' {
		j++
	}
	return s[:i+2] + s[j:]
}
