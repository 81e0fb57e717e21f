package frontend

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
)

// A Diagnostic is one problem in a kernel's source, at a position of the user's code.
type Diagnostic struct {
	Pos token.Position // file:line:col of the offending code
	Msg string         // what is wrong and what to write instead
}

// String formats the diagnostic as file:line:col: message.
func (d Diagnostic) String() string {
	if !d.Pos.IsValid() {
		return d.Msg
	}
	return fmt.Sprintf("%s: %s", d.Pos, d.Msg)
}

// Error is the typed error of a kernel that cannot be compiled: the kernel's
// name and every positioned diagnostic, in source order.
type Error struct {
	Kernel string       // Go name of the kernel, e.g. "increment" or "add[float32]"
	Diags  []Diagnostic // at least one
}

// Error lists the diagnostics, one per line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "compile %s:", e.Kernel)
	if len(e.Diags) == 1 {
		b.WriteString(" ")
		b.WriteString(e.Diags[0].String())
		return b.String()
	}
	for _, d := range e.Diags {
		b.WriteString("\n\t")
		b.WriteString(d.String())
	}
	return b.String()
}

// diags collects diagnostics, one per position.
type diags struct {
	fset *token.FileSet
	list []Diagnostic
	seen map[token.Pos]bool
}

func (d *diags) add(pos token.Pos, format string, args ...any) {
	if d.seen == nil {
		d.seen = map[token.Pos]bool{}
	}
	if d.seen[pos] {
		return
	}
	d.seen[pos] = true
	d.list = append(d.list, Diagnostic{Pos: d.fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
}

func (d *diags) err(kernel string) error {
	if len(d.list) == 0 {
		return nil
	}
	sort.SliceStable(d.list, func(i, j int) bool {
		a, b := d.list[i].Pos, d.list[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return &Error{Kernel: kernel, Diags: d.list}
}
