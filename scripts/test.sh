#!/usr/bin/env bash
# The whole test suite: type-check, then every jest test against SQLite and a real PostgreSQL.
# Each test file creates and drops its own throwaway PostgreSQL database; the cluster is started if it is down.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-postgres.sh
echo "type-checking…"
npx tsc --noEmit -p tsconfig.json
NODE_OPTIONS=--experimental-vm-modules npx jest "$@"
