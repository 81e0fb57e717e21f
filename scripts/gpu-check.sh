#!/usr/bin/env bash
# gpu-check.sh: nugo on a real GPU. The GPU test suite, `nugo info`, and the
# benchmark table against Numba (numba-cuda) and CUDA C, in one prepared run.
#
#   scripts/gpu-check.sh build   on the build machine (Go; no GPU needed):
#       cross-builds (GOOS=linux GOARCH=amd64 CGO_ENABLED=0, -trimpath,
#       stripped) the test binaries of cuda, internal/driver, every example and
#       cmd/nugo, the nugo CLI and bench/gpu, packed into .build/gpu/bin.tar.xz
#       (git ignores .build/; about 25 MB). Carry .build/gpu with the tree.
#   scripts/gpu-check.sh run     on the GPU machine (NVIDIA driver, nvcc,
#       numba-cuda, python3; no Go toolchain): unpacks the binaries, then with
#       NUGO_REQUIRE_GPU=1 runs the driver's and the cuda package's GPU tests
#       (the kernel corpus against the CPU backend), every example's test and
#       the CLI's on the GPU, `nugo info`, `nugo primes`, and the benchmarks;
#       prints the table and writes log.txt, results.jsonl and table.md to
#       $OUT/gpu-check when $OUT is set, else .build/gpu/out.
#   scripts/gpu-check.sh         build when go is on PATH, then run when a GPU
#       answers (nvidia-smi -L).
#
# Kernel sources on the GPU machine: nugo compiles a kernel from its Go source
# at run time and finds the file through the name compiled into the binary.
# The binaries are built with -trimpath, so that name is module-relative
# (github.com/nugo-dev/nugo/examples/logs/main.go); the run links this tree as
# $WORK/src/github.com/nugo-dev/nugo and sets NUGO_SOURCE_ROOT=$WORK/src, which
# internal/frontend joins with such names. The tree may sit at any path.
#
# Time: the run must end within 10 minutes. Each step and each benchmark
# process has a timeout, cut to what is left of 9.5 minutes; what no longer
# fits is reported as not run (the table lists the missing runs).
#
# Benchmarks (each implementation, each workload, one fresh process):
#   primes N=10^6, 10^7, 10^8; vecadd float32 10^8; logs 10000x10000 float64;
#   coalesced and permuted writes 10^8; moving average 10^7 width 101; and the
#   device-to-device copy bandwidth (CUDA C and nugo) the memory-bound rows
#   are held against. Per row: kernel time (median of 20 CUDA-event-timed
#   launches after warm-up), first-launch latency in the fresh process,
#   host launch overhead, checksums. See bench/gpu/main.go for the protocol
#   that bench/numba/common.py and bench/cuda/common.h follow as well.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/.build/gpu
PACK=$BUILD/bin.tar.xz
MODULE=github.com/nugo-dev/nugo

build() {
	command -v go >/dev/null || { echo "gpu-check build: go is not on PATH" >&2; return 1; }
	local bin=$BUILD/bin
	rm -rf "$bin" "$PACK" && mkdir -p "$bin" || return 1
	(
		set -e
		cd "$ROOT"
		export GOOS=linux GOARCH=amd64 CGO_ENABLED=0
		flags=(-trimpath -ldflags=-s\ -w)
		go test -c "${flags[@]}" -o "$bin/cuda.test" ./cuda
		go test -c "${flags[@]}" -o "$bin/driver.test" ./internal/driver
		go test -c "${flags[@]}" -o "$bin/cli.test" ./cmd/nugo
		for d in examples/*/; do
			name=$(basename "$d")
			go test -c "${flags[@]}" -o "$bin/example-$name.test" "./examples/$name"
		done
		go build "${flags[@]}" -o "$bin/nugo" ./cmd/nugo
		go build "${flags[@]}" -o "$bin/bench-gpu" ./bench/gpu
		{
			echo "built $(date -u +%FT%TZ) by $(go version)"
			echo "commit $(git rev-parse HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
		} >"$bin/BUILD-INFO"
	) || return 1
	tar -C "$bin" -cf - . | xz -T0 -6 >"$PACK" || return 1
	rm -rf "$bin"
	echo "gpu-check build: $(du -h "$PACK" | cut -f1) in ${PACK#"$ROOT"/}; carry .build/gpu to the GPU machine and run scripts/gpu-check.sh run"
}

# findlib points NUGO_LIBCUDA at the driver library when the loader does not
# know it (containers often mount the driver under /usr/local/nvidia).
findlib() {
	[[ -n ${NUGO_LIBCUDA:-} ]] && return
	local cache d
	cache=$(ldconfig -p 2>/dev/null) # captured: grep -q closing a pipe would trip pipefail
	if grep -q 'libcuda\.so\.1 ' <<<"$cache"; then
		return
	fi
	local path=${LD_LIBRARY_PATH:-}
	for d in ${path//:/ } /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/cuda/compat; do
		if [[ -e $d/libcuda.so.1 ]]; then
			export NUGO_LIBCUDA=$d/libcuda.so.1
			return
		fi
	done
}

# run OUTDIR: the GPU machine's half; its output also goes to OUTDIR/log.txt.
run() {
	local out=$1
	SECONDS=0 # the budget counts from here, not from a build before
	local log=$out/log.txt results=$out/results.jsonl
	: >"$results"
	[[ -f $PACK ]] || { echo "gpu-check run: $PACK is missing; run scripts/gpu-check.sh build where Go is, and carry .build/gpu"; return 1; }

	WORK=$(mktemp -d /tmp/nugo-gpu-check.XXXXXX)
	local bin=$WORK/bin
	mkdir -p "$bin" "$WORK/src/${MODULE%/*}" "$WORK/cuda"
	python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$PACK" "$bin" || return 1
	ln -s "$ROOT" "$WORK/src/$MODULE"
	export NUGO_SOURCE_ROOT=$WORK/src NUGO_REQUIRE_GPU=1 PYTHONUNBUFFERED=1
	unset NUGO_BACKEND NUGO_DEBUG
	findlib
	local failed=() passed=()
	# budget LIMIT: LIMIT seconds, or what is left of 9.5 minutes if less, so
	# that the whole run ends inside 10 minutes whatever hangs.
	budget() {
		local left=$((570 - SECONDS))
		echo $((left < $1 ? left : $1))
	}
	step() { # step NAME TIMEOUT DIR CMD...: a test step, logged, timed out, counted
		local name=$1 limit=$2 dir=$3
		shift 3
		limit=$(budget "$limit")
		if ((limit < 10)); then
			failed+=("$name (not run: the time budget was spent)")
			return
		fi
		echo
		echo "=== $name"
		local t0=$SECONDS
		(cd "$ROOT/$dir" && timeout "$limit" "$@")
		local rc=$?
		echo "=== $name: exit $rc in $((SECONDS - t0)) s"
		if ((rc == 0)); then passed+=("$name"); else failed+=("$name (exit $rc)"); fi
	}

	echo "=== gpu-check on $(hostname) at $(date -u +%FT%TZ)"
	cat "$bin/BUILD-INFO"
	nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1
	command -v nvcc >/dev/null && nvcc --version | tail -n 2
	python3 -c 'import numba, numba.cuda as c; print("numba", numba.__version__, "cuda available:", c.is_available())' 2>&1
	echo "NUGO_LIBCUDA=${NUGO_LIBCUDA:-(loader default)} NUGO_SOURCE_ROOT=$NUGO_SOURCE_ROOT"

	step "nugo info" 60 . "$bin/nugo" info
	step "driver tests" 120 internal/driver "$bin/driver.test" -test.v -test.count=1
	# The cuda package's own tests define kernels inside package cuda, which
	# only the CPU backend runs; the GPU tests select the GPU themselves.
	step "cuda GPU tests" 240 cuda env NUGO_BACKEND=cpu "$bin/cuda.test" -test.v -test.count=1 -test.run 'GPU' \
		-test.bench 'GPU' -test.benchtime 20000x
	local t
	for t in "$bin"/example-*.test; do
		local name=${t##*/example-}
		name=${name%.test}
		step "example $name" 120 "examples/$name" env NUGO_BACKEND=gpu "$t" -test.v -test.count=1
	done
	step "cli tests" 120 cmd/nugo env NUGO_BACKEND=gpu "$bin/cli.test" -test.v -test.count=1
	step "nugo primes 10^8" 120 . "$bin/nugo" primes -n 100000000 -backend gpu

	echo
	echo "=== building bench/cuda"
	# -arch=native needs nvcc 11.6 or later; else the device's sm_XY.
	local sm cu exe
	sm=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d .)
	for cu in "$ROOT"/bench/cuda/*.cu; do
		exe=$WORK/cuda/$(basename "$cu" .cu)
		nvcc -O3 -std=c++17 -arch=native -o "$exe" "$cu" ||
			nvcc -O3 -std=c++17 -arch="$sm" -o "$exe" "$cu" || echo "nvcc $cu failed"
	done

	echo
	echo "=== benchmarks"
	# bench IMPL WORKLOAD N CMD...: one fresh process, its JSON line kept.
	bench() {
		local impl=$1 workload=$2 n=$3
		shift 3
		local limit
		limit=$(budget 150)
		if ((limit < 10)); then
			echo "{\"impl\":\"$impl\",\"workload\":\"$workload\",\"n\":$n,\"error\":\"not run: the time budget was spent\"}" >>"$results"
			return
		fi
		local t0=$SECONDS line
		line=$(cd "$ROOT" && timeout "$limit" "$@" 2>"$WORK/stderr" | grep '^{' | tail -n 1)
		local rc=$?
		if [[ -z $line ]]; then
			local why
			why=$(tail -n 3 "$WORK/stderr" | tr '\n\r\t"\\' '     ')
			line="{\"impl\":\"$impl\",\"workload\":\"$workload\",\"n\":$n,\"error\":\"exit $rc: ${why:-no output}\"}"
		fi
		echo "$line" | tee -a "$results"
		echo "    ($impl $workload n=$n: $((SECONDS - t0)) s)"
	}
	local py="python3 bench/numba"
	local w n
	bench cuda d2d 100000000 "$WORK/cuda/d2d" 100000000
	bench nugo d2d 100000000 "$bin/bench-gpu" -workload d2d -n 100000000
	for n in 1000000 10000000 100000000; do
		bench nugo primes $n "$bin/bench-gpu" -workload primes -n $n
		bench numba primes $n $py/primes.py $n
		bench cuda primes $n "$WORK/cuda/primes" $n
	done
	for w in "vecadd 100000000" "logs 10000" "coalesced 100000000"; do
		set -- $w
		bench nugo "$1" "$2" "$bin/bench-gpu" -workload "$1" -n "$2"
		bench numba "$1" "$2" $py/"$1".py "$2"
		bench cuda "$1" "$2" "$WORK/cuda/$1" "$2"
	done
	bench nugo permuted 100000000 "$bin/bench-gpu" -workload permuted -n 100000000
	bench numba permuted 100000000 $py/coalesced.py 100000000 permuted
	bench cuda permuted 100000000 "$WORK/cuda/coalesced" 100000000 permuted
	bench nugo movingavg 10000000 "$bin/bench-gpu" -workload movingavg -n 10000000 -width 101
	bench numba movingavg 10000000 $py/movingavg.py 10000000 101
	bench cuda movingavg 10000000 "$WORK/cuda/movingavg" 10000000 101

	echo
	python3 "$ROOT/bench/gpu/table.py" "$results" | tee "$out/table.md"
	echo
	echo "=== launch overhead (go test -bench, host side per launch)"
	grep -E '^Benchmark' "$log" | sort -u
	echo
	echo "=== summary after $SECONDS s: ${#passed[@]} steps passed, ${#failed[@]} failed"
	local f
	for f in "${failed[@]}"; do echo "FAILED: $f"; done
	rm -rf "$WORK"
	((${#failed[@]} == 0))
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
