#!/usr/bin/env bash
# Submit an M-task primes array and a merge job that runs after it succeeds:
#   scripts/slurm/submit.sh M N OUTDIR [nugo primes flags...]
# Prints the two job ids. Without GPUs, pass -backend cpu and set
# GPUS_PER_TASK=0.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
m=$1 n=$2 out=$3
shift 3
gpus=()
if [[ ${GPUS_PER_TASK:-1} == 0 ]]; then gpus=(--gpus-per-task=0); fi
array=$(sbatch --parsable "${gpus[@]}" --array=0-$((m - 1)) --output="$out/slurm-%A_%a.out" "$here/primes-array.sbatch" "$n" "$out" "$@")
merge=$(sbatch --parsable --dependency=afterok:"$array" --output="$out/slurm-merge-%j.out" "$here/primes-merge.sbatch" "$out")
echo "$array $merge"
