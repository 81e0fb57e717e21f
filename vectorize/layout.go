package vectorize

import (
	"fmt"
	"strings"
)

// layout is a parsed gufunc layout such as "(m,n),(n)->(m)": the names of
// the core dimensions of each input and output.
type layout struct {
	text string
	ins  [][]string
	outs [][]string
}

// parseLayout parses NumPy's generalized-ufunc signature syntax:
// operand lists separated by "->", operands as parenthesized, comma-separated
// dimension names (letters, digits and underscores, not starting with a
// digit); spaces are ignored.
func parseLayout(s string) (layout, error) {
	l := layout{text: s}
	bad := func(format string, args ...any) (layout, error) {
		return layout{}, fmt.Errorf("%w %q: %s", ErrLayout, s, fmt.Sprintf(format, args...))
	}
	compact := strings.Join(strings.Fields(s), "")
	in, out, ok := strings.Cut(compact, "->")
	if !ok {
		return bad(`no "->" between the inputs and the outputs, as in "(n),()->(n)"`)
	}
	if strings.Contains(out, "->") {
		return bad(`more than one "->"`)
	}
	var err error
	if l.ins, err = parseOperands(in); err != nil {
		return bad("inputs: %v", err)
	}
	if l.outs, err = parseOperands(out); err != nil {
		return bad("outputs: %v", err)
	}
	if len(l.ins) == 0 {
		return bad("no inputs")
	}
	if len(l.outs) == 0 {
		return bad("no outputs")
	}
	for _, op := range l.ins {
		if err := noRepeats(op); err != nil {
			return bad("%v", err)
		}
	}
	for _, op := range l.outs {
		if err := noRepeats(op); err != nil {
			return bad("%v", err)
		}
	}
	return l, nil
}

// parseOperands parses "(a,b),(),(c)".
func parseOperands(s string) ([][]string, error) {
	var ops [][]string
	for len(s) > 0 {
		if s[0] != '(' {
			return nil, fmt.Errorf("expected '(' at %q", s)
		}
		end := strings.IndexByte(s, ')')
		if end < 0 {
			return nil, fmt.Errorf("missing ')' in %q", s)
		}
		body := s[1:end]
		dims := []string{}
		if body != "" {
			for _, d := range strings.Split(body, ",") {
				if !isName(d) {
					return nil, fmt.Errorf("%q is not a dimension name (letters, digits and _, not starting with a digit)", d)
				}
				dims = append(dims, d)
			}
		}
		ops = append(ops, dims)
		s = s[end+1:]
		if len(s) > 0 {
			if s[0] != ',' || len(s) == 1 {
				return nil, fmt.Errorf("expected ',' and another operand at %q", s)
			}
			s = s[1:]
		}
	}
	return ops, nil
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		digit := r >= '0' && r <= '9'
		if !letter && !(digit && i > 0) {
			return false
		}
	}
	return true
}

func noRepeats(dims []string) error {
	for i, d := range dims {
		for _, e := range dims[:i] {
			if d == e {
				return fmt.Errorf("dimension %s appears twice in one operand", d)
			}
		}
	}
	return nil
}

// String formats an operand's core dimensions as in the layout.
func coreString(dims []string) string { return "(" + strings.Join(dims, ",") + ")" }
