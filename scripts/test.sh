#!/usr/bin/env bash
# The test command of the README: static checks, the whole test suite, and
# the race detector on the packages that run kernels concurrently.
set -euo pipefail
cd "$(dirname "$0")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./...
CGO_ENABLED=0 go build ./...
go test ./...
go test -race ./cuda/... ./internal/cpu/... ./internal/ptxsim/... ./internal/driver/... ./vectorize/...
# The examples and vectorize again on the ptxsim backend: the same programs,
# compiled to PTX by nugo and interpreted, must pass the same tests.
NUGO_BACKEND=ptxsim go test -count=1 ./examples/... ./vectorize/...
# ... and once more with every kernel compiled in debug mode (bounds and
# division checks), which must not change a correct program's results.
NUGO_DEBUG=1 NUGO_BACKEND=ptxsim go test -count=1 ./examples/... ./vectorize/...
