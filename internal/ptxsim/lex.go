package ptxsim

import (
	"fmt"
	"strings"
)

type tokKind uint8

const (
	tkEOF   tokKind = iota
	tkWord          // identifiers, directives, opcodes, registers: [A-Za-z0-9_$%.]+ not starting with a digit
	tkNum           // numeric literal, starting with a digit
	tkStr           // "string"
	tkPunct         // one character: , ; : [ ] { } ( ) + - ! @ < > = |
)

type token struct {
	kind tokKind
	text string
	line int
}

// String quotes the token for error messages.
func (t token) String() string {
	if t.kind == tkEOF {
		return "end of file"
	}
	return fmt.Sprintf("%q", t.text)
}

func isWordStart(c byte) bool {
	return c == '_' || c == '$' || c == '%' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isWordChar(c byte) bool {
	return isWordStart(c) || c >= '0' && c <= '9'
}

// lex splits PTX source into tokens, dropping comments.
func lex(src string) ([]token, error) {
	var toks []token
	line := 1
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line)
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				if j < len(src) && src[j] == '\n' {
					return nil, fmt.Errorf("line %d: unterminated string", line)
				}
				j++
			}
			if j >= len(src) {
				return nil, fmt.Errorf("line %d: unterminated string", line)
			}
			toks = append(toks, token{tkStr, src[i+1 : j], line})
			i = j + 1
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) {
				d := src[j]
				if isWordChar(d) && d != '%' && d != '$' {
					j++
					continue
				}
				// exponent sign in decimal floats: 1e-5, 1.5E+3
				if (d == '+' || d == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !isHexLit(src[i:j]) {
					j++
					continue
				}
				break
			}
			toks = append(toks, token{tkNum, src[i:j], line})
			i = j
		case isWordStart(c):
			j := i + 1
			for j < len(src) && isWordChar(src[j]) {
				j++
			}
			toks = append(toks, token{tkWord, src[i:j], line})
			i = j
		case strings.IndexByte(",;:[]{}()+-!@<>=|", c) >= 0:
			toks = append(toks, token{tkPunct, src[i : i+1], line})
			i++
		default:
			return nil, fmt.Errorf("line %d: unexpected character %q", line, c)
		}
	}
	toks = append(toks, token{kind: tkEOF, line: line})
	return toks, nil
}

func isHexLit(s string) bool {
	return len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')
}
