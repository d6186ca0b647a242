#!/usr/bin/env bash
# Starts the local PostgreSQL cluster when it is not answering (a no-op when SCRIBE_TEST_POSTGRES_URL points elsewhere).
set -uo pipefail
if [ -n "${SCRIBE_TEST_POSTGRES_URL:-}" ]; then exit 0; fi
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then exit 0; fi
echo "PostgreSQL is not answering on 127.0.0.1:5432; starting the local cluster…"
version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
if [ -z "$version" ]; then
  echo "no PostgreSQL cluster is installed here; set SCRIBE_TEST_POSTGRES_URL to a server the tests may create databases on" >&2
  exit 1
fi
pg_ctlcluster --skip-systemctl-redirect "$version" main start || pg_ctlcluster "$version" main start
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 && exit 0
  sleep 1
done
echo "PostgreSQL did not come up" >&2
exit 1
