#!/usr/bin/env bash
# install-ptxas.sh: fetch NVIDIA's ptxas, cuobjdump and nvdisasm (CUDA 11.8, from
# Debian's non-free nvidia-cuda-toolkit package) without installing the toolkit.
#
# Idempotent: a second run with the tools already unpacked only prints the bin dir.
# It enables Debian's "contrib non-free" components in an extra apt sources file
# (derived from the machine's own Debian sources, so the mirror stays whatever the
# machine already uses), downloads the .deb files with `apt-get download`, and
# unpacks them with `dpkg -x` into a cache folder.
#
# Output: the last line on stdout is the directory to put on PATH, e.g.
#   PATH="$(scripts/install-ptxas.sh | tail -n1):$PATH"
# Needs root (or sudo) for apt-get update only when the sources file is new.
set -euo pipefail

CACHE="${NUGO_CUDA_CACHE:-${HOME:-/root}/.cache/nugo/cuda-toolkit}"
BIN="$CACHE/usr/bin"

log() { echo "install-ptxas: $*" >&2; }

if [ -x "$BIN/ptxas" ] && "$BIN/ptxas" --version >/dev/null 2>&1; then
	log "ptxas already unpacked in $BIN"
	echo "$BIN"
	exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

SRC=/etc/apt/sources.list.d/nugo-nonfree.sources
if [ ! -f "$SRC" ]; then
	base=""
	for f in /etc/apt/sources.list.d/debian.sources; do
		[ -f "$f" ] && base="$f"
	done
	if [ -n "$base" ]; then
		# deb822 format: same entries, other components.
		sed -E 's/^Components:.*/Components: contrib non-free non-free-firmware/' "$base" | $SUDO tee "$SRC" >/dev/null
	elif [ -f /etc/apt/sources.list ]; then
		# one-line format: keep deb lines, swap the components.
		grep -E '^deb ' /etc/apt/sources.list |
			awk '{print $1, $2, $3, "contrib non-free non-free-firmware"}' |
			$SUDO tee /etc/apt/sources.list.d/nugo-nonfree.list >/dev/null
		SRC=/etc/apt/sources.list.d/nugo-nonfree.list
	else
		log "no Debian apt sources found to derive contrib/non-free from"
		exit 1
	fi
	log "wrote $SRC"
fi
$SUDO apt-get update -qq >&2

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
# ptxas, cuobjdump and nvdisasm are statically linked apart from glibc; nvcc and
# friends are not needed. The package's dependencies (libnvvm, libcudart, ...)
# are only for nvcc, so only the one package is fetched.
apt-get download nvidia-cuda-toolkit >&2
mkdir -p "$CACHE"
for deb in ./*.deb; do
	dpkg -x "$deb" "$CACHE"
done
if ! "$BIN/ptxas" --version >&2; then
	log "ptxas in $BIN does not run; missing shared libraries:"
	ldd "$BIN/ptxas" >&2 || true
	exit 1
fi
echo "$BIN"
