package cuda_test

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
)

func TestPTXAndCompileErrors(t *testing.T) {
	ptx, err := Jit(testkernels.Scale).PTX(0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ptx, ".entry") || !strings.Contains(ptx, ".target sm_75") {
		t.Fatalf("PTX lacks an entry or the default target:\n%s", ptx)
	}
	_, err = Jit(testkernels.WithMap).PTX(0)
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is not a *CompileError", err)
	}
	if len(ce.Diagnostics) == 0 || !strings.Contains(ce.Diagnostics[0].Pos, "kernels.go:") {
		t.Fatalf("diagnostics %+v lack the kernel's position", ce.Diagnostics)
	}
	if _, err := Jit(42).PTX(0); err == nil {
		t.Fatal("PTX of a non-kernel succeeded")
	}
}

func TestPackParams(t *testing.T) {
	a := NewArray2[int32](3, 5)
	buf, m, err := PackForTest(Jit(testkernels.Mixed), []any{make([]float32, 7), 1.5, a, -3}, []uint64{0x1000, 0, 0x2000, 0})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"ptr0": 0x1000, "len0": 7, "value1": uint64(math.Float32bits(1.5)),
		"ptr2": 0x2000, "len2": 15, "rows2": 3, "cols2": 5, "value3": uint64(0xfd)}
	checked := 0
	for i, p := range m.Params {
		for _, pp := range p.PTX {
			var word [8]byte
			copy(word[:], buf[pp.Offset:pp.Offset+pp.Size])
			got := binary.LittleEndian.Uint64(word[:])
			key := pp.Role + string(rune('0'+i))
			if w, ok := want[key]; ok {
				checked++
				if got != w {
					t.Errorf("%s (%s) = %#x, want %#x", pp.Name, key, got, w)
				}
			}
		}
	}
	if checked != len(want) {
		t.Errorf("checked %d of the %d expected parameters; layout %+v", checked, len(want), m.Params)
	}
}
