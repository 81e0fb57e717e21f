#!/usr/bin/env bash
# codegen.sh: the numbers of bench/gpu/CODEGEN.md. Compiles each benchmark
# kernel with nugo (nugo ptx -sass) and with nvcc (-cubin, cuobjdump -sass)
# for sm_90, and prints registers, SASS instruction counts and loop bodies
# (bench/gpu/sasscount.py) side by side. Needs go, python3, and nvcc,
# ptxas and cuobjdump on PATH (CUDA 11.8 or newer; see CODEGEN.md for
# Debian's packages unpacked without installing). Files go to OUTDIR
# (default .build/codegen).
#
# Usage: bench/gpu/codegen.sh [OUTDIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$ROOT/.build/codegen}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT"
cd "$ROOT"
for t in go nvcc ptxas cuobjdump python3; do
	command -v "$t" >/dev/null || { echo "codegen.sh: $t is not on PATH" >&2; exit 1; }
done
go build -o "$OUT/nugo" ./cmd/nugo
count() { python3 bench/gpu/sasscount.py "$@"; }
regs() { grep -o 'Used [0-9]* registers' "$1" | sed -n "${2:-1}p"; }
# nugo KERNEL-PKG FUNC NAME
nugo() {
	"$OUT/nugo" ptx -arch "$ARCH" "$1" "$2" >"$OUT/nugo-$3.ptx"
	"$OUT/nugo" ptx -arch "$ARCH" -sass "$1" "$2" >"$OUT/nugo-$3.sass"
	echo "== nugo $3 ($2): $(regs "$OUT/nugo-$3.sass")"
	count "$OUT/nugo-$3.sass"
}
# cuda FILE FUNC-SUBSTRING NAME
cuda() {
	local cubin=$OUT/nvcc-$1.cubin
	if [[ ! -f $cubin ]]; then
		nvcc -O3 -std=c++17 -arch="$ARCH" -cubin -Xptxas -v -o "$cubin" "bench/cuda/$1.cu" >"$OUT/nvcc-$1.ptxas" 2>&1
		nvcc -O3 -std=c++17 -arch="$ARCH" -ptx -o "$OUT/nvcc-$1.ptx" "bench/cuda/$1.cu"
		cuobjdump -sass "$cubin" >"$OUT/nvcc-$1.sass"
	fi
	echo "== nvcc $3 ($1.cu): $(awk -v f="$2" '/entry function/ {on = index($0, f) > 0} on && /Used/ {sub(/.*Used /, "Used "); sub(/,.*/, ""); print; exit}' "$OUT/nvcc-$1.ptxas")"
	count "$OUT/nvcc-$1.sass" "$2"
}
nugo ./bench/gpu/kernels VecAdd vecadd
cuda vecadd vecadd vecadd
nugo ./internal/primes Kernel primes
cuda primes primes primes
nugo ./bench/gpu/kernels Logs logs
cuda logs logs logs
nugo ./bench/gpu/kernels InOrder coalesced
cuda coalesced in_order coalesced
nugo ./bench/gpu/kernels Permuted permuted
cuda coalesced permuted permuted
nugo ./bench/gpu/kernels MovingAverage movingavg
cuda movingavg movingavg movingavg
