#!/usr/bin/env bash
# gpu-check.sh: nugo on a real GPU. The GPU test suite, `nugo info`, and the
# benchmark table against Numba (numba-cuda) and CUDA C, in one prepared run.
#
#   scripts/gpu-check.sh build   on the build machine (Go; no GPU needed):
#       cross-builds (GOOS=linux CGO_ENABLED=0, -trimpath, stripped) the test
#       binaries of cuda, cuda/random, internal/driver, internal/nvml,
#       vectorize, every example and cmd/nugo, the nugo CLI and bench/gpu, for
#       each of GPU_CHECK_ARCHES
#       (default "amd64 arm64", so that a Grace Hopper host works too), packed into
#       .build/gpu/bin-ARCH.tar.xz (git ignores .build/; about 14 MB each:
#       xz -9's 64 MiB window finds what the test binaries share).
#       Carry .build/gpu with the tree; run picks the pack of uname -m.
#   scripts/gpu-check.sh run     on the GPU machine (NVIDIA driver, nvcc,
#       numba-cuda, python3; no Go toolchain): unpacks the binaries and, with
#       NUGO_REQUIRE_GPU=1, runs three phases. 1 (what matters most): `nugo
#       info`, the cuda package's GPU tests (the kernel corpus against the
#       CPU backend), `nugo primes -n 10^8`. 2: the benchmark table against
#       Numba and CUDA C (below). 3: the launch-overhead and pinned-copy
#       benchmarks, the driver's and NVML's tests, `nugo top -n 1`,
#       vectorize's and cuda/random's GPU tests, every example's test and
#       the CLI's in parallel, `nugo bench -n 10^7`, `nugo primes -devices
#       all` and two shards merged. bench/cuda is compiled
#       with nvcc in the background from the start. Output: log.txt
#       (everything), results.jsonl (one JSON line per benchmark run, or its
#       error), table.md (the steps, what passed, failed or did not run
#       and why, the benchmark table and the launch overhead) and chart.svg
#       (the table as bars, nugo plot), in $OUT/gpu-check when $OUT is
#       set, else .build/gpu/out; results.jsonl and table.md are rewritten
#       after every step, so a run cut short still leaves them.
#   scripts/gpu-check.sh         build when go is on PATH, then run when a GPU
#       answers (nvidia-smi -L).
#
# On the device tool (15 minutes of device time, machine start included):
#   run(command="bash scripts/gpu-check.sh run", carry=[".build/gpu"], timeout_s=450)
# (build first, on the checkout that makes the call: .build/gpu is not in git).
# A run takes at most 390 s plus the machine's start, so a failed first run
# can be fixed and repeated within the 15 minutes.
#
# Kernel sources on the GPU machine: the binaries carry the source of the
# kernels in the packages they link (nugo gen's nugo_source.go files); the
# kernels of _test.go files are read from this tree, which the front end
# finds as the main module's tree upward from the test's working directory
# (each test binary runs in its package's directory). No NUGO_SOURCE_ROOT
# is set: the tree may sit at any path.
#
# Time: the run ends within 390 s (NUGO_GPU_CHECK_DEADLINE) whatever
# hangs. Phase 1 may use the first 45% of it, the benchmarks (phase 2) run
# until 70% and at least two minutes, phase 3 until the deadline; every
# step and benchmark process has its own timeout, cut to what is left of
# its phase. Estimated (never measured) on an H200: phase 1 under a minute,
# benchmarks 2 to 3 minutes. What no longer fits is reported as not run.
# The driver's JIT cache is disabled for the benchmarks only (first-launch
# latency includes the PTX compile for every implementation); the tests,
# which load hundreds of modules, keep it.
#
# Benchmarks (each implementation, each workload, one fresh process), most
# useful first: the device-to-device copy bandwidth (CUDA C and nugo) the
# memory-bound rows are held against; vecadd float32 10^8; primes N=10^6 and
# 10^7; logs 10000x10000 float64; coalesced and permuted writes 10^8; moving
# average 10^7 width 101; primes N=10^8. Per row: kernel time (median of 20
# CUDA-event-timed launches after warm-up), first-launch latency in the fresh
# process, host launch overhead, checksums. See bench/gpu/main.go for the
# protocol that bench/numba/common.py and bench/cuda/common.h follow as well.
# A one-line numba-cuda probe runs first; where Numba cannot compile and nvcc
# is known, it is retried with CUDA_HOME set from nvcc's location.
#
# Dry run without a GPU (how this script was checked before its first GPU
# run): build, copy the tree as the device tool does (git's files plus
# .build/gpu) to another path, and run it there without Go on PATH:
#   scripts/gpu-check.sh build
#   rm -rf /tmp/devsim && mkdir -p /tmp/devsim/repo
#   git ls-files -co --exclude-standard | tar -cf - -T - | tar -C /tmp/devsim/repo -xf -
#   cp -r .build /tmp/devsim/repo/ && cd /tmp/devsim/repo
#   env -i HOME=/tmp/devsim PATH=/usr/bin:/bin OUT=/tmp/devsim/out bash scripts/gpu-check.sh run
# Every GPU step then fails at once with the reason (NUGO_REQUIRE_GPU=1) and
# every benchmark run reports its error in the table. To push the whole
# pipeline through instead, add NUGO_GPU_CHECK_BACKEND=ptxsim (or cpu): the
# GPU tests run on a simulated GPU (NUGO_FAKE_GPU=1: nugo's fake driver
# executing kernels in ptxsim), the examples, `nugo primes` and nugo's
# benchmarks on that backend, Numba on its simulator
# (NUMBA_ENABLE_CUDASIM=1), all at tiny sizes; the driver's and NVML's tests
# check the libraries' no-device answers and `nugo top` is skipped. This
# override is for dry runs only. PYTHON picks the Python (default python3).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/.build/gpu
# PACK is the pack of this machine's architecture (run), GOARCH's (build).
pack_for() { echo "$BUILD/bin-$1.tar.xz"; }
case $(uname -m) in
aarch64 | arm64) PACK=$(pack_for arm64) ;;
*) PACK=$(pack_for amd64) ;;
esac

build() {
	command -v go >/dev/null || { echo "gpu-check build: go is not on PATH" >&2; return 1; }
	rm -rf "$BUILD/bin" "$BUILD"/bin*.tar.xz "$BUILD/out" || return 1
	local arch
	for arch in ${GPU_CHECK_ARCHES:-amd64 arm64}; do
		build_arch "$arch" || return 1
	done
	# The device tool carries at most 64 MiB: the packs and the tracked
	# files (a rough count of what travels with the working tree).
	local packs tree total
	packs=$(du -cb "$BUILD"/bin-*.tar.xz | tail -n1 | cut -f1)
	tree=$(cd "$ROOT" && git ls-files -z | xargs -0 du -cb 2>/dev/null | awk '$2 == "total" { s += $1 } END { print s + 0 }')
	total=$((packs + tree))
	echo "gpu-check build: carry about $((total >> 20)) MiB of the device tool's 64 MiB (packs $((packs >> 20)) MiB, tree $((tree >> 20)) MiB)"
	if ((total > 62 << 20)); then
		echo "gpu-check build: WARNING: too close to 64 MiB; rebuild with GPU_CHECK_ARCHES=amd64 (or the GPU host's arch) to carry one pack" >&2
	fi
}

# build_arch GOARCH: one architecture's pack.
build_arch() {
	local bin=$BUILD/bin pack
	pack=$(pack_for "$1")
	rm -rf "$bin" && mkdir -p "$bin" || return 1
	(
		set -e
		cd "$ROOT"
		export GOOS=linux GOARCH=$1 CGO_ENABLED=0
		flags=(-trimpath -ldflags=-s\ -w)
		go test -c "${flags[@]}" -o "$bin/cuda.test" ./cuda
		go test -c "${flags[@]}" -o "$bin/driver.test" ./internal/driver
		go test -c "${flags[@]}" -o "$bin/nvml.test" ./internal/nvml
		go test -c "${flags[@]}" -o "$bin/vectorize.test" ./vectorize
		go test -c "${flags[@]}" -o "$bin/random.test" ./cuda/random
		go test -c "${flags[@]}" -o "$bin/cli.test" ./cmd/nugo
		for d in examples/*/; do
			name=$(basename "$d")
			go test -c "${flags[@]}" -o "$bin/example-$name.test" "./examples/$name"
		done
		go build "${flags[@]}" -o "$bin/nugo" ./cmd/nugo
		go build "${flags[@]}" -o "$bin/bench-gpu" ./bench/gpu
		{
			echo "built $(date -u +%FT%TZ) by $(go version) for linux/$1"
			echo "commit $(git rev-parse HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
		} >"$bin/BUILD-INFO"
	) || return 1
	# One xz stream with a 64 MiB dictionary: the test binaries are mostly
	# the same code (cuda, compiler, front end), which -6's 8 MiB window
	# cannot see across; -9 packs them in less than half the size.
	tar -C "$bin" -cf - . | xz -T1 -9 >"$pack" || return 1
	rm -rf "$bin"
	echo "gpu-check build: $(du -h "$pack" | cut -f1) in ${pack#"$ROOT"/}; carry .build/gpu to the GPU machine and run scripts/gpu-check.sh run"
}

# findlib SONAME VAR points VAR (NUGO_LIBCUDA, NUGO_LIBNVML) at the library
# when the loader does not know it (containers often mount the driver under
# /usr/local/nvidia).
findlib() {
	local so=$1 var=$2
	[[ -n ${!var:-} ]] && return
	local cache d
	cache=$(ldconfig -p 2>/dev/null) # captured: grep -q closing a pipe would trip pipefail
	if grep -qF "$so " <<<"$cache"; then
		return
	fi
	local path=${LD_LIBRARY_PATH:-}
	for d in ${path//:/ } /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat; do
		if [[ -e $d/$so ]]; then
			export "$var=$d/$so"
			return
		fi
	done
}

# run OUTDIR: the GPU machine's half; its output also goes to OUTDIR/log.txt.
run() {
	local out=$1
	SECONDS=0 # the budget counts from here, not from a build before
	local results=$out/results.jsonl steps=$out/steps.txt
	# Phases end at these many seconds (see below); the defaults fit a run
	# twice into the device tool's 15 minutes, machine starts included.
	local deadline=${NUGO_GPU_CHECK_DEADLINE:-390}
	local phase1_end=$((deadline * 45 / 100)) phase2_end=$((deadline * 70 / 100)) phase_end
	: >"$results"
	: >"$steps"
	local py=${PYTHON:-python3}
	# The dry-run override (see the header): nugo's side on another backend,
	# Numba on its simulator, tiny sizes.
	local nb=gpu dry=${NUGO_GPU_CHECK_BACKEND:-}
	case $dry in
	"") ;;
	cpu | ptxsim)
		nb=$dry
		export NUMBA_ENABLE_CUDASIM=1 NUGO_FAKE_GPU=1
		;;
	*)
		echo "gpu-check run: NUGO_GPU_CHECK_BACKEND must be cpu or ptxsim, not $dry"
		return 2
		;;
	esac
	# size FULL TINY: the benchmark size, or the dry run's.
	size() { if [[ -n $dry ]]; then echo "$2"; else echo "$1"; fi; }
	# table: rewrites table.md from the steps and results so far.
	table() {
		{
			echo "# gpu-check $(date -u +%FT%TZ), after $SECONDS s${dry:+ (DRY RUN: nugo on $dry, Numba simulated, tiny sizes)}"
			echo
			echo "## Steps"
			echo
			sed 's/^/- /' "$steps"
			echo
			echo "## Benchmarks"
			echo
			"$py" "$ROOT/bench/gpu/table.py" "$results" 2>/dev/null ||
				python3 "$ROOT/bench/gpu/table.py" "$results" 2>&1 || {
				echo "(bench/gpu/table.py did not run; the raw results:)"
				cat "$results"
			}
			echo
			echo "## Launch overhead (host side per launch, go test -bench)"
			echo
			grep -hE '^Benchmark.*ns/op' "$out/log.txt" 2>/dev/null | sort -u | sed 's/^/    /' || true
		} >"$out/table.md.tmp"
		mv "$out/table.md.tmp" "$out/table.md"
	}
	# note STATUS TEXT: one line in steps.txt, and table.md rewritten.
	note() {
		echo "$1 $2" >>"$steps"
		table
	}
	# budget LIMIT [END]: LIMIT seconds, or what is left until END (default:
	# the deadline) if less.
	budget() {
		local left=$((${2:-$deadline} - SECONDS))
		echo $((left < $1 ? left : $1))
	}
	# first_failure LOG: the message of a Go test log's first failure (the
	# last file.go:N: line before the first --- FAIL), a panic, or the last line.
	first_failure() {
		local msg
		msg=$(grep -m 1 -E '^panic: ' "$1")
		[[ -z $msg ]] && msg=$(awk '/^[ \t]+[^ ]+\.go:[0-9]+: / {m = $0} /--- FAIL/ && m != "" {print m; exit}' "$1")
		[[ -z $msg ]] && msg=$(grep -v '^[[:space:]]*$' "$1" | tail -n 1)
		msg=${msg#"${msg%%[![:space:]]*}"}
		echo "${msg:0:300}"
	}
	local failed=0
	# step NAME LIMIT DIR CMD...: a test step, logged, timed out, noted. An
	# argument @timeout becomes -test.timeout just inside the step's limit, so
	# that a hung Go test prints its goroutines before the kill.
	step() {
		local name=$1 limit=$2 dir=$3
		shift 3
		limit=$(budget "$limit" "$phase_end")
		if ((limit < 10)); then
			note "NOT RUN" "$name: the time budget of its phase (until $phase_end s) was spent"
			failed=$((failed + 1))
			return
		fi
		local args=() a
		for a in "$@"; do
			if [[ $a == @timeout ]]; then a=-test.timeout=$((limit - 5))s; fi
			args+=("$a")
		done
		echo
		echo "=== $name (limit $limit s)"
		local t0=$SECONDS
		(cd "$ROOT/$dir" && timeout -k 5 "$limit" "${args[@]}") 2>&1 | tee "$WORK/step.log"
		local rc=${PIPESTATUS[0]}
		echo "=== $name: exit $rc in $((SECONDS - t0)) s"
		if ((rc == 0)); then
			note PASS "$name ($((SECONDS - t0)) s)"
		else
			note FAIL "$name (exit $rc$( ((rc == 124 || rc == 137)) && echo ": timed out after $limit s"), $((SECONDS - t0)) s): $(first_failure "$WORK/step.log")"
			failed=$((failed + 1))
		fi
	}

	echo "=== gpu-check on $(uname -n) at $(date -u +%FT%TZ) in $ROOT${dry:+ (DRY RUN: nugo on $dry)}"
	[[ -f $PACK ]] || {
		note "NOT RUN" "everything: $PACK is missing; run scripts/gpu-check.sh build where Go is, and carry .build/gpu"
		return 1
	}
	WORK=$(mktemp -d /tmp/nugo-gpu-check.XXXXXX)
	local bin=$WORK/bin
	mkdir -p "$bin" "$WORK/cuda"
	tar -C "$bin" -xJf "$PACK" 2>/dev/null ||
		"$py" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$PACK" "$bin" || {
		note "NOT RUN" "everything: $PACK did not unpack (neither tar -xJ nor Python's tarfile)"
		return 1
	}
	unset NUGO_SOURCE_ROOT
	export NUGO_REQUIRE_GPU=1 PYTHONUNBUFFERED=1
	# ptxas for the tests that assemble PTX (nugo vet -ptxas): nvcc's
	# directory has it.
	if command -v nvcc >/dev/null; then
		PATH=$(dirname "$(readlink -f "$(command -v nvcc)")"):$PATH
	fi
	unset NUGO_BACKEND NUGO_DEBUG
	findlib libcuda.so.1 NUGO_LIBCUDA
	findlib libnvidia-ml.so.1 NUGO_LIBNVML
	cat "$bin/BUILD-INFO"
	echo "$(nproc) CPUs, $(free -g 2>/dev/null | awk '/^Mem:/ {print $2 " GiB"}') memory, $(uname -sr)"
	local gpu
	gpu=$(timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,compute_mode --format=csv,noheader 2>&1)
	echo "nvidia-smi: $gpu"
	command -v nvcc >/dev/null && echo "nvcc: $(nvcc --version | tail -n 1)"
	echo "$py: $(command -v "$py") $(timeout 60 "$py" -c 'import numba; print("numba", numba.__version__)' 2>&1 | tail -n 1)"
	echo "NUGO_LIBCUDA=${NUGO_LIBCUDA:-(loader default)}"

	# bench/cuda in the background (nvcc needs CPUs only): every file at
	# once, for the device's sm_XY, else -arch=native, else sm_80 (whose PTX
	# the driver compiles for newer GPUs).
	local sm nvcc_pid=
	sm=$(sed -n '1s/.*, \([0-9]*\)\.\([0-9]*\), [^,]*$/sm_\1\2/p' <<<"$gpu")
	if command -v nvcc >/dev/null; then
		(
			local cu
			for cu in "$ROOT"/bench/cuda/*.cu; do
				(
					exe=$WORK/cuda/$(basename "$cu" .cu)
					for arch in ${sm:-native} native sm_80; do
						timeout -k 5 120 nvcc -O3 -std=c++17 -arch="$arch" -o "$exe" "$cu" >>"$exe.log" 2>&1 && break
						echo "nvcc -arch=$arch $cu failed (exit $?)" >>"$exe.log"
					done
				) &
			done
			wait
		) >/dev/null 2>&1 & # not on the log's pipe, which would keep tee open
		nvcc_pid=$!
	fi

	# Phase 1, what matters most: the kernel corpus on the GPU against the
	# CPU, and the capstone's checksum; phase 2: the benchmark table; phase
	# 3: everything else. Each phase ends by its own deadline, so that a slow
	# one cannot starve the next, and the whole run by the script's.
	phase_end=$phase1_end
	step "nugo info" 20 . "$bin/nugo" info
	# The cuda package's own tests define kernels inside package cuda, which
	# only the CPU backend runs; the GPU tests select the GPU themselves.
	# Benchmarks run in their own step (phase 3): Go skips a binary's
	# benchmarks when one of its tests fails.
	step "cuda GPU tests (corpus against the CPU)" 120 cuda env NUGO_BACKEND=cpu \
		"$bin/cuda.test" -test.v -test.count=1 -test.run GPU @timeout
	local pn
	pn=$(size 100000000 20000)
	step "nugo primes -n $pn" 60 . "$bin/nugo" primes -n "$pn" -backend "$nb"

	# Phase 2: the benchmarks, with at least two minutes whatever phase 1
	# took. No driver JIT cache: first-launch latency includes the PTX
	# compile for nugo and Numba alike, in every fresh process (the tests
	# keep the cache: they load hundreds of modules).
	phase_end=$((phase2_end > SECONDS + 120 ? phase2_end : SECONDS + 120))
	export CUDA_CACHE_DISABLE=1
	if [[ -n $nvcc_pid ]]; then
		echo
		echo "=== bench/cuda: nvcc -O3 -arch=${sm:-native}"
		local waited=$SECONDS
		while kill -0 "$nvcc_pid" 2>/dev/null && ((SECONDS - waited < 60)); do sleep 1; done
		kill "$nvcc_pid" 2>/dev/null
		cat "$WORK"/cuda/*.log 2>/dev/null
		local f
		echo "built: $(for f in "$WORK"/cuda/*; do [[ $f == *.log ]] || printf '%s ' "${f##*/}"; done)"
	else
		echo "=== bench/cuda: nvcc is not on PATH; the CUDA C column stays empty"
	fi
	# Numba: one tiny kernel first; where it cannot compile, CUDA_HOME from
	# nvcc's location is tried (numba-cuda looks for libNVVM there).
	echo
	echo "=== numba-cuda probe"
	local probe='from numba import cuda
import numpy as np
@cuda.jit
def k(a):
    a[0] = 7
d = cuda.device_array(1, np.int32)
k[1, 1](d)
assert d.copy_to_host()[0] == 7
print("numba-cuda compiles and launches")'
	local numba_err=
	if ! timeout -k 5 60 "$py" -c "$probe" 2>"$WORK/probe.err"; then
		tail -n 5 "$WORK/probe.err"
		numba_err="numba-cuda probe failed: $(tail -n 1 "$WORK/probe.err" | tr '\n\r\t"\\' '     ')"
		if [[ -z ${CUDA_HOME:-} ]] && command -v nvcc >/dev/null; then
			local home
			home=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
			echo "retrying with CUDA_HOME=$home"
			if CUDA_HOME=$home timeout -k 5 60 "$py" -c "$probe" 2>"$WORK/probe.err"; then
				export CUDA_HOME=$home
				numba_err=
			else
				tail -n 5 "$WORK/probe.err"
			fi
		fi
	fi
	if [[ -n $numba_err ]]; then note FAIL "$numba_err"; else note PASS "numba-cuda probe"; fi

	echo
	echo "=== benchmarks"
	# bench IMPL WORKLOAD N LIMIT CMD...: one fresh process, its JSON line
	# kept. After one of an implementation's runs timed out, its later runs
	# get 20 s at most, so that a side that hangs cannot starve the others.
	local hung=" "
	bench() {
		local impl=$1 workload=$2 n=$3 limit=$4
		[[ $hung == *" $impl "* ]] && ((limit > 20)) && limit=20
		limit=$(budget "$limit" "$phase_end")
		shift 4
		local err=
		if ((limit < 10)); then
			err="not run: the benchmarks' time budget (until $phase_end s) was spent"
		elif [[ $impl == cuda && ! -x $1 ]]; then
			err="not run: ${1##*/}.cu was not built (nvcc missing or failed, see log.txt)"
		elif [[ $impl == numba && -n $numba_err ]]; then
			err="not run: $numba_err"
		fi
		if [[ -n $err ]]; then
			echo "{\"impl\":\"$impl\",\"workload\":\"$workload\",\"n\":$n,\"error\":\"$err\"}" | tee -a "$results"
			table
			return
		fi
		local t0=$SECONDS line rc
		line=$(cd "$ROOT" && timeout -k 5 "$limit" "$@" 2>"$WORK/stderr")
		rc=$?
		line=$(grep '^{' <<<"$line" | tail -n 1)
		if [[ $rc != 0 || -z $line ]]; then
			sed 's/^/    stderr: /' "$WORK/stderr" | tail -n 20
			local why
			why=$(grep -v '^\s*$' "$WORK/stderr" | tail -n 3 | tr '\n\r\t"\\' '     ')
			if ((rc == 124 || rc == 137)); then
				why="timed out after $limit s${why:+; $why}"
				hung+="$impl "
			fi
			line="{\"impl\":\"$impl\",\"workload\":\"$workload\",\"n\":$n,\"error\":\"exit $rc: ${why:-no output}\"}"
		fi
		echo "$line" | tee -a "$results"
		echo "    ($impl $workload n=$n: $((SECONDS - t0)) s)"
		table
	}
	local w n
	bench cuda d2d "$(size 100000000 3000)" 30 "$WORK/cuda/d2d" "$(size 100000000 3000)"
	bench nugo d2d "$(size 100000000 3000)" 30 "$bin/bench-gpu" -backend "$nb" -workload d2d -n "$(size 100000000 3000)"
	for w in "vecadd $(size 100000000 3000) 40" "primes $(size 1000000 1000) 30" "primes $(size 10000000 3000) 40" \
		"logs $(size 10000 40) 40" "coalesced $(size 100000000 3000) 40" "permuted $(size 100000000 3000) 60" \
		"movingavg $(size 10000000 3000) 40" "primes $(size 100000000 6000) 120"; do
		# shellcheck disable=SC2086 # split on purpose
		set -- $w
		local wl=$1 wn=$2 wt=$3 file=$1 extra=()
		case $wl in
		permuted) file=coalesced extra=(permuted) ;;
		movingavg) extra=(101) ;;
		esac
		local flags=(-backend "$nb" -workload "$wl" -n "$wn")
		[[ $wl == movingavg ]] && flags+=(-width 101)
		bench nugo "$wl" "$wn" "$wt" "$bin/bench-gpu" "${flags[@]}"
		bench numba "$wl" "$wn" "$wt" "$py" "bench/numba/$file.py" "$wn" "${extra[@]}"
		bench cuda "$wl" "$wn" "$wt" "$WORK/cuda/$file" "$wn" "${extra[@]}"
	done


	# The table as a chart (nugo plot: grouped bars, kernel time and
	# throughput, log scales where the spread needs them).
	step "benchmark chart (chart.svg)" 20 . "$bin/nugo" plot -o "$out/chart.svg" \
		-title "nugo, Numba and CUDA C${dry:+ (DRY RUN: nugo on $dry, Numba simulated)}" \
		-subtitle "${gpu%%,*}, $(date -u +%F)" "$results"

	# Phase 3: the rest.
	unset CUDA_CACHE_DISABLE
	phase_end=$deadline
	step "launch overhead (go test -bench GPU)" 60 cuda env NUGO_BACKEND=cpu \
		"$bin/cuda.test" -test.v -test.count=1 -test.run XXX -test.bench GPU -test.benchtime "$(size 20000x 20x)" \
		${dry:+-test.skip SyncGrid} @timeout # a simulated grid barrier takes minutes
	step "async copies, pageable vs pinned (Pin)" 40 cuda env NUGO_BACKEND=cpu \
		"$bin/cuda.test" -test.v -test.count=1 -test.run XXX -test.bench PinnedCopies -test.benchtime 200x @timeout
	if [[ -n $dry ]]; then
		# The driver and NVML tests check the real libraries; without a
		# GPU they only check the no-device answers.
		step "driver tests (no GPU: the library's no-device answers)" 60 internal/driver env -u NUGO_REQUIRE_GPU \
			"$bin/driver.test" -test.v -test.count=1 @timeout
		step "NVML tests (no GPU: the library's no-device answers)" 30 internal/nvml env -u NUGO_REQUIRE_GPU \
			"$bin/nvml.test" -test.v -test.count=1 @timeout
		note SKIP "nugo top -n 1: needs NVML and a GPU (dry run)"
	else
		step "driver tests" 60 internal/driver "$bin/driver.test" -test.v -test.count=1 @timeout
		step "NVML tests" 30 internal/nvml "$bin/nvml.test" -test.v -test.count=1 @timeout
		step "nugo top -n 1" 15 . "$bin/nugo" top -n 1
	fi
	step "vectorize on the GPU (ufuncs and gufuncs against the cpu target)" 60 vectorize \
		"$bin/vectorize.test" -test.v -test.count=1 -test.run OnGPU @timeout
	step "cuda/random on the GPU (generators against the CPU backend)" 60 cuda/random \
		"$bin/random.test" -test.v -test.count=1 -test.run OnGPU @timeout
	# The examples and the CLI's tests, in parallel (one process each), unless
	# the GPU is not in the Default compute mode (then one at a time).
	local t name dir pids=() names=()
	local limit
	limit=$(budget 90 "$phase_end")
	if ((limit < 10)); then
		note "NOT RUN" "examples and CLI tests: the time budget of its phase (until $phase_end s) was spent"
		failed=$((failed + 1))
	else
		echo
		echo "=== examples and CLI tests on $nb (limit $limit s)"
		local t0=$SECONDS serial=
		: >"$WORK/passed"
		[[ -z $dry && $gpu != *Default* ]] && serial=1 && echo "(one at a time: the GPU's compute mode is not Default)"
		for t in "$bin"/example-*.test "$bin/cli.test"; do
			name=${t##*/}
			name=${name%.test}
			# nugo gen's tests need the go command, which the GPU machine
			# lacks; CI runs them.
			local skip=()
			if [[ $name == cli ]]; then dir=cmd/nugo skip=(-test.skip '^TestGen'); else dir=examples/${name#example-}; fi
			names+=("$name")
			local lim=$limit
			[[ -n $serial ]] && lim=$(budget 30 "$phase_end")
			if ((lim < 10)); then
				echo 'not run: the time budget of the tests was spent' >"$WORK/$name.log"
				echo 'not run' >"$WORK/$name.rc"
				continue
			fi
			# In a dry run the tests are not on a GPU: those that require one
			# (nugo top's) skip as on any machine without one.
			(cd "$ROOT/$dir" && timeout -k 5 "$lim" env ${dry:+-u NUGO_REQUIRE_GPU} NUGO_BACKEND="$nb" "$t" -test.v -test.count=1 \
				-test.timeout=$((lim - 5))s "${skip[@]}" >"$WORK/$name.log" 2>&1
			echo $? >"$WORK/$name.rc") &
			pids+=($!)
			[[ -n $serial ]] && wait $!
		done
		((${#pids[@]} > 0)) && wait "${pids[@]}" 2>/dev/null
		for name in "${names[@]}"; do
			local rc
			rc=$(cat "$WORK/$name.rc" 2>/dev/null || echo '?')
			echo "--- $name: exit $rc"
			cat "$WORK/$name.log"
			if [[ $rc == 0 ]]; then
				echo "$name" >>"$WORK/passed"
			elif [[ $rc == "not run" ]]; then
				note "NOT RUN" "$name: the time budget of its phase (until $phase_end s) was spent"
				failed=$((failed + 1))
			else
				note FAIL "$name on $nb (exit $rc$( [[ $rc == 124 || $rc == 137 ]] && echo ": timed out")): $(first_failure "$WORK/$name.log")"
				failed=$((failed + 1))
			fi
		done
		local np
		np=$(wc -l <"$WORK/passed")
		note "$( ((np == ${#names[@]})) && echo PASS || echo DONE)" "examples and CLI tests on $nb: $np of ${#names[@]} passed ($((SECONDS - t0)) s)"
	fi
	step "nugo bench -n $(size 10000000 3000)" 60 . "$bin/nugo" bench -backend "$nb" -n "$(size 10000000 3000)" -reps 5
	# Every device of the node in one process (the summary has a line per
	# device when there are several), and two shards merged: merge checks
	# coverage and each part's sha256 and prints the total checksum.
	step "nugo primes -devices all -n $(size 100000000 20000)" 60 . "$bin/nugo" primes -backend "$nb" \
		-n "$(size 100000000 20000)" -chunk "$(size 4194304 2000)" -devices all
	step "nugo primes: 2 shards and merge, -n $(size 10000000 20000)" 60 . bash -c \
		'set -e; d=$(mktemp -d); trap "rm -rf $d" EXIT; for k in 0 1; do "$0" primes -n "$1" -backend "$2" -shard $k/2 -out "$d"; done; "$0" primes merge "$d"' \
		"$bin/nugo" "$(size 10000000 20000)" "$nb"
	echo
	table
	cat "$out/table.md"
	echo
	echo "=== launch overhead (go test -bench, host side per launch)"
	grep -E '^Benchmark' "$out/log.txt" | sort -u
	echo
	echo "=== summary after $SECONDS s: $failed failed or not run"
	grep -v '^PASS' "$steps"
	rm -rf "$WORK"
	((failed == 0))
}

# logged_run: run, with its output on stdout and in the output folder.
logged_run() {
	local out=${OUT:+$OUT/gpu-check}
	out=${out:-$BUILD/out}
	rm -rf "$out" && mkdir -p "$out" || return 1
	run "$out" 2>&1 | tee "$out/log.txt"
	return "${PIPESTATUS[0]}"
}

case ${1:-} in
build) build ;;
run) logged_run ;;
"")
	if command -v go >/dev/null; then build || exit 1; fi
	if nvidia-smi -L >/dev/null 2>&1; then logged_run; else echo "gpu-check: no GPU answers nvidia-smi here; built only"; fi
	;;
*)
	echo "usage: scripts/gpu-check.sh [build|run]" >&2
	exit 2
	;;
esac
