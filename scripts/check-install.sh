#!/usr/bin/env bash
# A bare install works: build errdex's wheel, install errdex[all] into a fresh virtual
# environment in a temporary folder (versions pinned by requirements.lock, no dev
# extra), then run every command once from it (scripts/check_install.py): mine,
# explain, scan, search, show, export, import, enrich (static and LLM), mine-many,
# serve and mcp; and mine + explain against PostgreSQL when scripts/start-postgres.sh
# can start one. Exits non-zero on the first failure.
#
#   scripts/check-install.sh        (PYTHON=python3.11 picks the interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-$(command -v python3.11 || command -v python3)}"
say() { echo "check-install: $*" >&2; }

started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/errdex-install.XXXXXX")"
pgdir="$(mktemp -d "${TMPDIR:-/tmp}/errdex-pg.XXXXXX")"  # short: it holds a unix socket
pg_started=""
cleanup() {
    if [ -n "$pg_started" ]; then
        bash scripts/start-postgres.sh --stop "$pgdir" || true
    fi
    rm -rf "$work" "$pgdir"
}
trap cleanup EXIT

"$PYTHON" -m venv "$work/venv"
bin="$work/venv/bin"
"$bin/python" -m pip wheel --quiet --quiet --disable-pip-version-check --no-deps \
    --wheel-dir "$work/dist" .
wheels=("$work"/dist/errdex-*.whl)
"$bin/python" -m pip install --quiet --quiet --disable-pip-version-check -c requirements.lock \
    "${wheels[0]}[all]"
say "wheel built and errdex[all] installed in $((SECONDS - started))s"

url=""
if url="$(bash scripts/start-postgres.sh "$pgdir" 2>"$work/postgres.log")"; then
    pg_started=1
else
    url=""
    say "no PostgreSQL server could be started: its check is skipped ($(tail -n 1 "$work/postgres.log"))"
fi

mkdir "$work/run"
"$bin/python" scripts/check_install.py --errdex "$bin/errdex" --work "$work/run" \
    ${url:+--postgres "$url"}
say "passed in $((SECONDS - started))s"
