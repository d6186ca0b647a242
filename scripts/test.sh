#!/usr/bin/env bash
# The whole test suite: the static checks (at once), then every jest test against SQLite and a real PostgreSQL.
# Test databases are copies of one migrated database per provider, made in jest's global setup
# (test/support/test-templates.ts); the PostgreSQL cluster is started if it is down.
#
# The suite runs from a copy of the repository's files in a fresh temporary directory with nothing beside it
# (node_modules is linked, not copied), so a test or script that reads a file outside the repository fails here
# as it would on a user's fresh clone. SCRIBE_TEST_IN_PLACE=1 runs it where it is instead.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${SCRIBE_TEST_IN_PLACE:-}" ] && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/scribe-test.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  copy="$scratch/scribe"
  mkdir -p "$copy"
  # tracked and new (not ignored) files, as a clone would have them plus uncommitted work
  git ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$copy"
  ln -s "$PWD/node_modules" "$copy/node_modules"
  echo "running the suite from $copy (nothing beside it)"
  status=0
  SCRIBE_TEST_IN_PLACE=1 bash "$copy/scripts/test.sh" "$@" || status=$?
  rm -rf test-results && cp -r "$copy/test-results" . 2>/dev/null || true
  exit "$status"
fi

bash scripts/ensure-postgres.sh
rm -f test-results/summary.txt
# The checks are independent of one another, so they run at once (the type-check takes longest; the others finish
# behind it), each into its own log; they are reported in order, and any failure stops the run before jest.
checks=(
  "that nothing reads outside the repository|bash scripts/check-self-contained.sh"
  "formatting and lint rules (npm run lint: Biome)|npx biome check --error-on-warnings ."
  "that imports point one way (scripts/check-imports.ts)|npx tsx scripts/check-imports.ts"
  "that test/ mirrors src/ and the code map matches the tree (scripts/check-layout.ts)|npx tsx scripts/check-layout.ts"
  "the docs with Scribe's own edit checks (scripts/docs/check-docs.ts)|npx tsx scripts/docs/check-docs.ts"
  "types (tsc)|npx tsc --noEmit -p tsconfig.json"
)
logs=$(mktemp -d "${TMPDIR:-/tmp}/scribe-checks.XXXXXX")
pids=()
for i in "${!checks[@]}"; do
  bash -c "${checks[$i]#*|}" >"$logs/$i" 2>&1 &
  pids+=("$!")
done
# The browser tests' Chromium comes inside the @sparticuz/chromium package and is unpacked on first use: do it once
# here, beside the checks, before jest's workers could race to unpack it.
if [ -z "${SCRIBE_CHROMIUM:-}" ]; then
  node -e "import('@sparticuz/chromium').then((m) => m.default.executablePath()).then((p) => console.log('chromium: ' + p))" >"$logs/chromium" 2>&1 &
  chromium=$!
fi
failed=0
for i in "${!checks[@]}"; do
  echo "checking ${checks[$i]%%|*}…"
  if ! wait "${pids[$i]}"; then failed=1; fi
  cat "$logs/$i"
done
if [ -n "${chromium:-}" ]; then wait "$chromium" || failed=1; cat "$logs/chromium"; fi
rm -rf "$logs"
if [ "$failed" -ne 0 ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
# The dashboard's bundle, which /dashboard serves (built once here, not by each test that asks for the page).
node scripts/build-dashboard.js
status=0
NODE_OPTIONS=--experimental-vm-modules npx jest "$@" || status=$?
# The last line of the run is the plain summary CI reads.
if [ -f test-results/summary.txt ]; then cat test-results/summary.txt; else echo "0 passed, 1 failed"; fi
exit "$status"
