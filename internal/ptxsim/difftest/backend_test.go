package difftest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// The ptxsim backend through the public API: same behaviour as the CPU
// backend for host slices, device arrays, streams, events and errors.

func useBackend(t *testing.T, b cuda.Backend) {
	t.Helper()
	if err := cuda.SetBackend(b); err != nil {
		t.Fatal(err)
	}
}

func TestBackendHostAndDeviceArrays(t *testing.T) {
	in := int32s(1000, 9)
	want := make([]int64, len(in))
	useBackend(t, cuda.CPU)
	k := cuda.Jit(sampleWiden)
	grid, block := cuda.Dim1((len(in)+255)/256), cuda.Dim1(256)
	if err := k.Launch(grid, block, in, want); err != nil {
		t.Fatal(err)
	}
	useBackend(t, cuda.PTXSim)
	defer useBackend(t, cuda.CPU)
	if b, _ := cuda.CurrentBackend(); b != cuda.PTXSim {
		t.Fatalf("current backend %s, want ptxsim", b)
	}
	k = cuda.Jit(sampleWiden)
	got := make([]int64, len(in))
	if err := k.Launch(grid, block, in, got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("host-slice launch on ptxsim differs from the CPU backend")
	}
	// device arrays, a stream and events
	din, err := cuda.ToDevice(in)
	if err != nil {
		t.Fatal(err)
	}
	dout, err := cuda.NewDeviceArray[int64](len(in))
	if err != nil {
		t.Fatal(err)
	}
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	start, _ := cuda.NewEvent()
	end, _ := cuda.NewEvent()
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := k.LaunchWith(cuda.LaunchConfig{Grid: grid, Block: block, Stream: s}, din, dout); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	got2 := make([]int64, len(in))
	if err := dout.CopyToHostAsync(got2, s); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if d, err := cuda.ElapsedTime(start, end); err != nil || d < 0 {
		t.Fatalf("ElapsedTime = %v, %v", d, err)
	}
	if !slices.Equal(got2, want) {
		t.Fatal("device-array launch on a stream differs from the CPU backend")
	}
	if err := din.Free(); err != nil {
		t.Fatal(err)
	}
	if err := dout.Free(); err != nil {
		t.Fatal(err)
	}
}

func TestBackendErrors(t *testing.T) {
	useBackend(t, cuda.PTXSim)
	defer useBackend(t, cuda.CPU)

	// a kernel the compiler refuses: a *CompileError with a position, at Compile
	_, err := cuda.Compile(sampleMap)
	var ce *cuda.CompileError
	if !errors.As(err, &ce) || len(ce.Diagnostics) == 0 || !strings.Contains(ce.Diagnostics[0].Pos, "samples.go") {
		t.Fatalf("Compile(sampleMap) = %v, want a *cuda.CompileError at samples.go", err)
	}

	out := make([]int32, 8)
	// release mode: the store lands outside every buffer the launch knows
	err = cuda.Jit(sampleStore).Launch(cuda.Dim1(1), cuda.Dim1(32), out, 1<<24, int32(5))
	var ke *cuda.KernelError
	if !errors.As(err, &ke) || !strings.Contains(err.Error(), "outside any global allocation") {
		t.Fatalf("out-of-range store = %v, want a *cuda.KernelError naming the fault", err)
	}
	// debug mode: the compiled bounds check reports the Go position, as the CPU backend does
	err = cuda.Jit(sampleStore, cuda.Debug).Launch(cuda.Dim1(1), cuda.Dim1(32), out, 8, int32(5))
	if !errors.As(err, &ke) || !strings.Contains(ke.Pos, "samples.go") || !strings.Contains(ke.Msg, "index out of range [8] with length 8") {
		t.Fatalf("debug out-of-range store = %v, want a *cuda.KernelError at samples.go", err)
	}
	// and in range it works
	if err := cuda.Jit(sampleStore, cuda.Debug).Launch(cuda.Dim1(1), cuda.Dim1(32), out, 7, int32(5)); err != nil || out[7] != 5 {
		t.Fatalf("in-range store: %v, out[7] = %d", err, out[7])
	}
}

func TestBackendPrintf(t *testing.T) {
	useBackend(t, cuda.PTXSim)
	defer useBackend(t, cuda.CPU)
	text, err := captureStdout(func() error {
		return cuda.Jit(sampleHello).Launch(cuda.Dim1(2), cuda.Dim1(3), 0.5)
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	slices.Sort(lines)
	want := []string{"thread 0: 0.00", "thread 1: 0.50", "thread 2: 1.00", "thread 3: 1.50", "thread 4: 2.00", "thread 5: 2.50"}
	if !slices.Equal(lines, want) {
		t.Fatalf("printed %q, want %q", lines, want)
	}
}
