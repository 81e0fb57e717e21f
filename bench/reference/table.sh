#!/usr/bin/env bash
# table.sh: static comparison of nugo's code with nvcc's (CUDA 11.8, -O3) and
# Numba's for three kernels, without a GPU: each compiler's PTX is assembled
# by the same ptxas for the same GPU, and the SASS is measured.
#
# Needs: ptxas, cuobjdump and cicc from scripts/install-ptxas.sh (its cache
# also holds cicc and libdevice), gcc (preprocessor only), and for the Numba
# column Debian's python3-numba and libnvvm4. Run from the repository root:
#
#	bench/reference/table.sh [sm_80]
#
# It prints a Markdown table. Columns: registers per thread (ptxas -v), SASS
# instructions of the kernel (calls included), instructions in the innermost
# loop (the smallest backward branch range), calls left in the SASS, and
# whether 64-bit division has a 32-bit fast path (I2F.U32.RP marks 32-bit
# division in SASS).
set -euo pipefail
arch=${1:-sm_80}
root=$(cd "$(dirname "$0")/../.." && pwd)
ref="$root/bench/reference"
bin="$(bash "$root/scripts/install-ptxas.sh" 2>/dev/null | tail -n1)"
export PATH="$bin:$PATH"
tk="$(dirname "$bin")/lib/nvidia-cuda-toolkit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# nugo
go build -o "$work/nugo" "$root/cmd/nugo"
"$work/nugo" ptx -arch "$arch" "$root/examples/primes" factorSums >"$work/primes.nugo.ptx"
"$work/nugo" ptx -arch "$arch" "$root/examples/vectoradd" add >"$work/vectoradd.nugo.ptx"
"$work/nugo" ptx -arch "$arch" "$root/examples/logs" logs >"$work/logs.nugo.ptx" || echo "nugo: logs needs the device math library" >&2

# nvcc's device compiler (cicc), -O3, fmad on (nvcc's default)
export NVVMIR_LIBRARY_DIR="$tk/libdevice"
cc=${arch#sm_}
for k in primes vectoradd logs; do
	gcc -D__CUDA_ARCH__="${cc}0" -E -x c++ -D__CUDACC__ -D__NVCC__ -include "$ref/cuda_device.h" "$ref/$k.cu" -o "$work/$k.ii"
	"$tk/bin/cicc" --c++17 --orig_src_file_name "$k.cu" -arch "compute_$cc" -m64 -O3 -ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 \
		--no-version-ident "$work/$k.ii" -o "$work/$k.nvcc.ptx"
done

# Numba: a CUDA_HOME made of Debian's libnvvm4 and the toolkit's libdevice
numba=yes
mkdir -p "$work/cudahome/nvvm/lib64" "$work/cudahome/nvvm/libdevice"
nvvm=$(ls /usr/lib/x86_64-linux-gnu/libnvvm.so.*.*.* 2>/dev/null | head -n1 || true)
if [ -n "$nvvm" ] && /usr/bin/python3 -c 'import numba' 2>/dev/null; then
	ln -s "$nvvm" "$work/cudahome/nvvm/lib64/$(basename "$nvvm")"
	ln -s "$tk/libdevice/libdevice.10.bc" "$work/cudahome/nvvm/libdevice/"
	CUDA_HOME="$work/cudahome" NUMBA_FORCE_CUDA_CC="${cc:0:1}.${cc:1}" /usr/bin/python3 "$ref/kernels.py" "$work" >/dev/null 2>&1 || numba=no
else
	numba=no
fi

measure() { # file.ptx → "regs | instructions | loop | calls | fast path"
	local ptx=$1
	if [ ! -s "$ptx" ]; then echo "n/a | n/a | n/a | n/a | n/a"; return; fi
	local regs
	regs=$(ptxas -v -arch="$arch" -o "$ptx.cubin" "$ptx" 2>&1 | grep -o 'Used [0-9]* registers' | head -n1 | grep -o '[0-9]*')
	cuobjdump -sass "$ptx.cubin" | /usr/bin/env python3 "$ref/sassstat.py" "$regs"
}

echo "| kernel | compiler | registers | SASS instructions | innermost loop | calls | 32-bit division path |"
echo "|---|---|---|---|---|---|---|"
for k in primes vectoradd logs; do
	for c in nugo nvcc numba; do
		[ "$c" = numba ] && [ "$numba" = no ] && { echo "| $k | $c | (numba unavailable) | | | | |"; continue; }
		echo "| $k | $c | $(measure "$work/$k.$c.ptx") |"
	done
done
