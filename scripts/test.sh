#!/usr/bin/env bash
# The whole test suite: type-check, then every jest test against SQLite and a real PostgreSQL.
# Each test file creates and drops its own throwaway PostgreSQL database; the cluster is started if it is down.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-postgres.sh
rm -f test-results/summary.txt
echo "type-checking…"
if ! npx tsc --noEmit -p tsconfig.json; then
  echo "0 passed, 1 failed"
  exit 1
fi
status=0
NODE_OPTIONS=--experimental-vm-modules npx jest "$@" || status=$?
# The last line of the run is the plain summary CI reads.
if [ -f test-results/summary.txt ]; then cat test-results/summary.txt; else echo "0 passed, 1 failed"; fi
exit "$status"
