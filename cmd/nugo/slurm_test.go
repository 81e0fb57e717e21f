package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSlurm starts a one-node Slurm cluster (scripts/slurm/local-cluster.sh),
// runs nugo primes as a 4-task array job with a dependent merge job, then
// cancels one task of a second array, checks that merge names the missing
// shard, resubmits that task alone and merges again. It needs root and
// Debian's slurm-wlm and munge: under CI=true their absence fails the test,
// elsewhere it skips with a message.
func TestSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Slurm cluster test takes tens of seconds")
	}
	for _, tool := range []string{"sbatch", "scancel", "squeue", "sinfo", "munge", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s missing: .ci/run installs slurm-wlm and munge", tool)
			}
			t.Skipf("%s missing (apt-get install slurm-wlm munge to run this test)", tool)
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		// A packed test binary on a GPU node (gpu-check) has no toolchain
		// to build the nugo the jobs run.
		if os.Getenv("CI") == "true" {
			t.Fatalf("go missing: the test builds the nugo its jobs run: %v", err)
		}
		t.Skipf("go missing (the test builds the nugo its jobs run): %v", err)
	}
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("the local Slurm cluster needs root")
		}
		t.Skip("the local Slurm cluster needs root")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	nugo := filepath.Join(tmp, "nugo")
	run := func(env []string, name string, args ...string) string {
		t.Helper()
		for attempt := 1; ; attempt++ {
			cmd := exec.CommandContext(ctx, name, args...)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			// On a loaded machine the controller may miss a client's
			// message; the commands here may be repeated (a shard rewrites
			// the same part).
			if err != nil && attempt < 3 && strings.Contains(string(out), "Unable to contact slurm controller") {
				t.Logf("%s: the controller did not answer (attempt %d); retrying", name, attempt)
				time.Sleep(2 * time.Second)
				continue
			}
			if err != nil {
				t.Fatalf("%s %q: %v\n%s", name, args, err, out)
			}
			return string(out)
		}
	}
	run(nil, "go", "build", "-o", nugo, ".")
	state := filepath.Join(tmp, "slurm")
	script := filepath.Join(root, "scripts", "slurm", "local-cluster.sh")
	start := exec.CommandContext(ctx, "bash", script, "start", state)
	out, err := start.Output()
	t.Cleanup(func() {
		if out, err := exec.Command("bash", script, "stop", state).CombinedOutput(); err != nil {
			t.Errorf("stopping the cluster: %v\n%s", err, out)
		}
	})
	if err != nil {
		logs, _ := os.ReadFile(filepath.Join(state, "slurmctld.log"))
		t.Fatalf("starting the cluster: %v\n%s\n%s", err, out, logs)
	}
	conf := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "export SLURM_CONF="))
	env := []string{"SLURM_CONF=" + conf, "NUGO=" + nugo}
	array := filepath.Join(root, "scripts", "slurm", "primes-array.sbatch")
	merge := filepath.Join(root, "scripts", "slurm", "primes-merge.sbatch")

	// A 4-task array and a merge that depends on it (--wait on both, so a
	// failed task fails the test instead of leaving the merge pending).
	t0 := time.Now()
	dir := filepath.Join(tmp, "parts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	id := strings.TrimSpace(run(env, "sbatch", "--parsable", "--wait", "--gpus-per-task=0", "--array=0-3", "--output="+filepath.Join(tmp, "a-%a.out"),
		array, "10000000", dir, "-backend", "cpu"))
	mergeOut := filepath.Join(tmp, "merge.out")
	run(env, "sbatch", "--wait", "--kill-on-invalid-dep=yes", "--dependency=afterok:"+id, "--output="+mergeOut, merge, dir)
	got, _ := os.ReadFile(mergeOut)
	if !strings.Contains(string(got), "checksum    5495532284181") {
		t.Fatalf("merge job output lacks the checksum 5495532284181:\n%s", got)
	}
	t.Logf("array of 4 + merge: %v", time.Since(t0).Round(time.Millisecond))

	// A second array, throttled to one task at a time, whose last task is
	// cancelled before it finishes.
	dir2 := filepath.Join(tmp, "parts2")
	if err := os.MkdirAll(dir2, 0o755); err != nil {
		t.Fatal(err)
	}
	id2 := strings.TrimSpace(run(env, "sbatch", "--parsable", "--gpus-per-task=0", "--array=0-3%1", "--output="+filepath.Join(tmp, "b-%a.out"),
		array, "10000000", dir2, "-backend", "cpu"))
	run(env, "scancel", id2+"_3")
	for {
		if q := run(env, "squeue", "-h", "-j", id2); strings.TrimSpace(q) == "" {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	cmd := exec.CommandContext(ctx, nugo, "primes", "merge", dir2)
	mout, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(mout), "gap: ") {
		t.Fatalf("merge after a cancelled task: %v\n%s", err, mout)
	}
	t.Logf("merge names the cancelled shard: %s", strings.TrimSpace(string(mout)))
	run(append(env, "SHARDS=4"), "sbatch", "--wait", "--gpus-per-task=0", "--array=3", "--output="+filepath.Join(tmp, "c-%a.out"),
		array, "10000000", dir2, "-backend", "cpu")
	if out := run(env, nugo, "primes", "merge", dir2); !strings.Contains(out, "5495532284181") {
		t.Fatalf("merge after resubmitting: %s", out)
	}
}
