package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/shard"
)

// TestPrimesDevices: -devices all over four virtual cpu devices writes the
// file a single-device run writes, and a shard run records its devices in
// the manifest.
func TestPrimesDevices(t *testing.T) {
	t.Setenv(cuda.VirtualDevicesEnv, "4")
	dir := t.TempDir()
	single, multi := filepath.Join(dir, "single.bin"), filepath.Join(dir, "multi.bin")
	if err := runPrimes([]string{"-n", "300000", "-backend", "cpu", "-chunk", "20000", "-out", single}); err != nil {
		t.Fatal(err)
	}
	for _, devices := range []string{"all", "3,1"} {
		if err := runPrimes([]string{"-n", "300000", "-backend", "cpu", "-chunk", "20000", "-devices", devices, "-out", multi}); err != nil {
			t.Fatalf("-devices %s: %v", devices, err)
		}
		a, _ := os.ReadFile(single)
		b, _ := os.ReadFile(multi)
		if len(a) != 299_999*8 || !bytes.Equal(a, b) {
			t.Fatalf("-devices %s wrote %d bytes that differ from the single-device run's %d", devices, len(b), len(a))
		}
	}
	parts := filepath.Join(dir, "parts")
	for k, devices := range []string{"all", "2"} {
		if err := runPrimes([]string{"-n", "100000", "-backend", "cpu", "-chunk", "5000", "-devices", devices, "-shard", shard.Rank{K: k, M: 2}.String(), "-out", parts}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := shard.Merge(parts)
	if err != nil || rep.Err() != nil {
		t.Fatalf("merge: %v %v", err, rep.Err())
	}
	if rep.Checksum != 795571828 {
		t.Errorf("checksum %d, want 795571828", rep.Checksum)
	}
	got := map[int]string{}
	for _, m := range rep.Manifests {
		got[m.Shard] = m.Devices
	}
	if got[0] != "0,1,2,3" || got[1] != "2" {
		t.Errorf("manifest devices %v, want 0,1,2,3 and 2", got)
	}
}

// TestPrimesDeviceFailure: a device failing mid-run fails the command with
// an error naming the device and chunk, and leaves no output file, and no
// shard part, behind.
func TestPrimesDeviceFailure(t *testing.T) {
	t.Setenv(cuda.VirtualDevicesEnv, "3")
	t.Setenv(cuda.VirtualFaultEnv, "1:1") // its first launch: device 1 surely gets a chunk of the hundred
	dir := t.TempDir()
	out := filepath.Join(dir, "r.bin")
	for _, args := range [][]string{
		{"-n", "500000", "-backend", "cpu", "-chunk", "5000", "-devices", "all", "-out", out},
		{"-n", "500000", "-backend", "cpu", "-chunk", "5000", "-devices", "all", "-shard", "0/2", "-out", filepath.Join(dir, "parts")},
	} {
		err := runPrimes(args)
		if err == nil || !strings.Contains(err.Error(), "cpu device 1 failed on chunk") || !strings.Contains(err.Error(), "injected fault") {
			t.Errorf("nugo primes %q with a failing device: %v", args, err)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s: %v", out, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "parts")); len(ents) != 0 {
		t.Errorf("a failed shard left %v", ents)
	}
}

func TestPrimesDevicesBadInput(t *testing.T) {
	t.Setenv(cuda.VirtualDevicesEnv, "2")
	dir := t.TempDir()
	for _, c := range []struct {
		devices, want string
	}{
		{"7", "device 7 does not exist; the cpu backend has 2"},
		{"0,0", "device 0 is listed twice"},
		{"x", `"x" is not a device number`},
		{"0,-1", `"-1" is not a device number`},
		{"0,", `"" is not a device number`},
	} {
		err := runPrimes([]string{"-n", "100", "-backend", "cpu", "-devices", c.devices, "-out", filepath.Join(dir, "r.bin")})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-devices %s: %v, want %q", c.devices, err, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("bad -devices left %v", ents)
	}
	t.Setenv(cuda.VirtualDevicesEnv, "many")
	if err := runPrimes([]string{"-n", "100", "-backend", "cpu", "-devices", "all"}); err == nil || !strings.Contains(err.Error(), cuda.VirtualDevicesEnv) {
		t.Errorf("-devices all with %s=many: %v", cuda.VirtualDevicesEnv, err)
	}
}
