package primes

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func TestFactorSum(t *testing.T) {
	for n, want := range map[int64]int64{0: 0, 1: 0, 2: 2, 4: 4, 60: 12, 91: 20, 101: 101, 100_000_000: 56, 1<<40 + 0: 80, 999_999_937: 999_999_937} {
		if got := FactorSum(n); got != want {
			t.Errorf("FactorSum(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestRunChecksums(t *testing.T) {
	tests := []struct {
		n, chunk int64
		want     int64
	}{
		{100_000, 0, 795571828},
		{1_000_000, 0, 64989338772},
		{1_000_000, 77_777, 64989338772}, // uneven chunks, a short last one
	}
	for _, tc := range tests {
		var progress []int64
		res, err := Run(Config{N: tc.n, Chunk: int(tc.chunk), Samples: 10, Progress: func(d int64) { progress = append(progress, d) }})
		if err != nil {
			t.Fatal(err)
		}
		if res.Checksum != tc.want {
			t.Errorf("N=%d chunk=%d: checksum %d, want %d", tc.n, tc.chunk, res.Checksum, tc.want)
		}
		if len(progress) == 0 || progress[len(progress)-1] != tc.n-1 {
			t.Errorf("progress %v does not end at %d", progress, tc.n-1)
		}
		if res.Verified == 0 || res.KernelTime <= 0 || res.Throughput() <= 0 {
			t.Errorf("result %+v lacks verification or timing", res)
		}
	}
}

func TestRunWritesEveryResult(t *testing.T) {
	var buf bytes.Buffer
	res, err := Run(Config{N: 1_000, Chunk: 300, Out: &buf})
	if err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 999*8 {
		t.Fatalf("wrote %d bytes, want %d", buf.Len(), 999*8)
	}
	for i := range 999 {
		if got := int64(binary.LittleEndian.Uint64(buf.Bytes()[8*i:])); got != FactorSum(int64(i+2)) {
			t.Fatalf("result %d is %d, want %d", i+2, got, FactorSum(int64(i+2)))
		}
	}
	if res.First[0] != 2 || res.Last[2] != FactorSum(1000) {
		t.Errorf("first %v last %v", res.First, res.Last)
	}
}

func TestRunRejectsSmallN(t *testing.T) {
	if _, err := Run(Config{N: 1}); err == nil {
		t.Fatal("N=1 accepted")
	}
}
