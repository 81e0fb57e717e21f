#!/usr/bin/env bash
# Runs bench/cpu: nugo's CPU backend against Numba, one table of ratios.
# Installs Debian's python3-numba first if it is missing (needs root).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! /usr/bin/python3 -c 'import numba' 2>/dev/null; then
  apt-get update -qq
  apt-get install -y -qq python3-numba
fi
mkdir -p docs
go run ./bench/cpu -python /usr/bin/python3 -plot docs/bench-cpu.svg "$@"
