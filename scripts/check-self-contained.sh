#!/usr/bin/env bash
# Fails when code, tests or scripts name a path outside the repository: an absolute path into the machine's work
# folders, or a relative path climbing to a sibling "shared" folder. (Running the suite from a copy with nothing
# beside it, as scripts/test.sh does, catches the relative ones at run time; this also catches absolute ones.)
set -uo pipefail
cd "$(dirname "$0")/.."
# find, not git: the suite runs from a copy that is not a git work tree
files=$(find src test scripts bench bin .ci package.json jest.config.js tsconfig.json Dockerfile -type f -not -path 'scripts/check-self-contained.sh' -not -name '*.png')
if [ -z "$files" ]; then
  echo "found no files to check" >&2
  exit 1
fi
# shellcheck disable=SC2086
found=$(grep -nE "['\"\`(](/work/|(\.\./)+shared/)" $files 2>/dev/null || true)
if [ -n "$found" ]; then
  echo "these lines name a path outside the repository:" >&2
  echo "$found" >&2
  exit 1
fi
