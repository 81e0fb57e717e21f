#!/usr/bin/env bash
# The test command of the README: static checks, the whole test suite, and
# the race detector on the packages that run kernels concurrently. Each
# step says when it starts and how long it took. Checks that need ptxas or
# Slurm skip with a message where they are absent, and fail under CI=true.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
n=0
step() {
	n=$((n + 1))
	echo "=== test.sh step $n: $1 (at $((SECONDS - start)) s)"
}

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
step "go vet ./..."
go vet ./...
step "CGO_ENABLED=0 go build ./..."
CGO_ENABLED=0 go build ./...
step "go test ./..."
go test ./...
step "go test -race on the concurrent packages"
go test -race -timeout 20m ./cuda/... ./internal/cpu/... ./internal/ptxsim/... ./internal/driver/... ./vectorize/...
# The examples and vectorize again on the ptxsim backend: the same programs,
# compiled to PTX by nugo and interpreted, must pass the same tests.
step "examples and vectorize on ptxsim"
NUGO_BACKEND=ptxsim go test -count=1 ./examples/... ./vectorize/...
# ... and once more with every kernel compiled in debug mode (bounds and
# division checks), which must not change a correct program's results.
step "examples and vectorize on ptxsim, debug mode"
NUGO_DEBUG=1 NUGO_BACKEND=ptxsim go test -count=1 ./examples/... ./vectorize/...
echo "=== test.sh: all $n steps passed in $((SECONDS - start)) s"
