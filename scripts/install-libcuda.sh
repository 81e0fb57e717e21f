#!/usr/bin/env bash
# install-libcuda.sh puts NVIDIA's user-space driver library (libcuda.so.1) and
# management library (libnvidia-ml.so.1) on a Debian machine, GPU or not, so that
# nugo's driver and NVML bindings can be tested against the real libraries:
# without a GPU, cuDriverGetVersion answers and cuInit returns
# CUDA_ERROR_NO_DEVICE, and nvmlInit_v2 returns NVML_ERROR_DRIVER_NOT_LOADED.
#
# It enables the contrib and non-free components for the machine's own Debian
# release and mirrors (copied from the apt sources already configured, so no
# host is named here), then installs the libcuda1 and libnvidia-ml1 packages
# without their recommendations (kernel module, nvidia-smi, ...). They live in
# non-free and pull nvidia-support and glx-alternative-nvidia from contrib
# (nvidia-alternative links both libraries into the loader's path);
# non-free-firmware is not needed (only the kernel module's firmware is there).
#
# Usage: install-libcuda.sh [--force]   (as root)
# Idempotent: when both libraries are already known to the loader it does nothing
# unless --force is given; with --force it rewrites the same sources file and
# apt-get install leaves an installed package as it is.
set -euo pipefail

if [[ ${EUID:-$(id -u)} -ne 0 ]]; then
	echo "install-libcuda.sh: must run as root" >&2
	exit 1
fi

force=false
[[ ${1:-} == --force ]] && force=true

# The loader's view of a library, e.g. lib_line 'libcuda\.so\.1' (captured
# first: grep -q closing a pipe early would fail the pipeline under pipefail).
lib_line() {
	local cache
	cache=$({ command -v ldconfig >/dev/null && ldconfig -p; } 2>/dev/null || /sbin/ldconfig -p 2>/dev/null || true)
	grep -m1 "$1 " <<<"$cache" || true
}

if ! $force && [[ -n $(lib_line 'libcuda\.so\.1') && -n $(lib_line 'libnvidia-ml\.so\.1') ]]; then
	echo "install-libcuda.sh: libcuda.so.1 and libnvidia-ml.so.1 already present"
	exit 0
fi

. /etc/os-release
if [[ ${ID:-} != debian ]]; then
	echo "install-libcuda.sh: this script knows Debian only (found ID=${ID:-unknown})" >&2
	exit 1
fi

components="contrib non-free"
out=/etc/apt/sources.list.d/nugo-nonfree.sources

# Each source already configured for Debian (deb822 .sources stanzas and one-line
# "deb URI SUITE COMPONENTS" entries) is repeated with the extra components.
{
	echo "# Written by nugo's scripts/install-libcuda.sh: contrib/non-free for libcuda1 and libnvidia-ml1."
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -e $f && $f != "$out" ]] || continue
		awk -v comps="$components" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && uris ~ /debian/ && suites != "") {
					printf "Types: deb\nURIs: %s\nSuites: %s\nComponents: %s\n", uris, suites, comps
					if (signed != "") printf "Signed-By: %s\n", signed
					printf "\n"
				}
				types = uris = suites = signed = ""
			}
			/^[ \t]*$/ { flush(); next }
			/^#/ { next }
			/^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0; next }
			/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0; next }
			/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0; next }
			/^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); signed = $0; next }
			END { flush() }
		' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -e $f ]] || continue
		# Keep options such as [signed-by=...]; replace the component list.
		awk -v comps="$components" '
			$1 == "deb" && $0 ~ /debian/ {
				i = 2
				opts = ""
				if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts = opts $i " "; i++ } opts = opts $i " "; i++ }
				printf "Types: deb\nURIs: %s\nSuites: %s\nComponents: %s\n", $i, $(i+1), comps
				if (match(opts, /signed-by=[^] ]+/)) printf "Signed-By: %s\n", substr(opts, RSTART + 10, RLENGTH - 10)
				printf "\n"
			}
		' "$f"
	done
} >"$out.tmp"

if ! grep -q '^URIs:' "$out.tmp"; then
	rm -f "$out.tmp"
	echo "install-libcuda.sh: no Debian apt source found to extend" >&2
	exit 1
fi
mv "$out.tmp" "$out"

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends libcuda1 libnvidia-ml1

for lib in 'libcuda\.so\.1' 'libnvidia-ml\.so\.1'; do
	line=$(lib_line "$lib")
	if [[ -z $line ]]; then
		echo "install-libcuda.sh: libcuda1 and libnvidia-ml1 installed but ${lib//\\/} is not in the loader cache" >&2
		exit 1
	fi
	echo "install-libcuda.sh: ${line#"${line%%[![:space:]]*}"}"
done
