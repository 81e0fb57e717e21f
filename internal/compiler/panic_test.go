package compiler

import (
	"strings"
	"testing"
)

const panicSrc = `package k

import (
	"errors"

	"github.com/nugo-dev/nugo/cuda"
)

func check(x int64) int64 {
	if x < 0 {
		panic(errors.New("negative"))
	}
	return x * 2
}

func panics(t cuda.Thread, a []int64) {
	i := t.Grid1()
	switch a[i] {
	case 1:
		panic("one")
	case 2:
		panic(2.5)
	case 3:
		panic(complex64(1 + 2i))
	case 4:
		panic(uint8(200))
	}
	a[i] = check(a[i])
}

func errValue(t cuda.Thread, a []int64) {
	err := errors.New("kept")
	if a[0] > 0 {
		panic(err)
	}
	a[0] = 1
}
`

// TestPanicLowering: each panic of a constant fills the error record with
// its own site, whose Msg is what fmt.Sprint prints for the value; the
// module assembles; errors.New anywhere but in panic's argument is refused.
func TestPanicLowering(t *testing.T) {
	m, err := compileSrc(t, panicSrc, "panics", Target{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, s := range m.Sites {
		if s.Kind == "panic" {
			msgs = append(msgs, s.Msg)
		}
	}
	want := "one|2.5|(1+2i)|200|negative"
	if got := strings.Join(msgs, "|"); got != want {
		t.Errorf("panic sites %q, want %q", got, want)
	}
	if !m.UsesErrorRecord {
		t.Error("a kernel that panics does not use the error record")
	}
	assembleAll(t, "panics", m)

	_, err = compileSrc(t, panicSrc, "errValue", Target{})
	if err == nil || !strings.Contains(err.Error(), "panic in a kernel takes a constant") {
		t.Errorf("errors.New kept in a variable: %v", err)
	}
}
