#!/usr/bin/env bash
# PostgreSQL for errdex's PostgreSQL store tests (tests/test_store_pg.py).
#
#   scripts/start-postgres.sh             install Debian's postgresql when missing (as root)
#   scripts/start-postgres.sh DIR         ... then start a throwaway cluster in DIR and print
#                                         its connection URL (unix socket in DIR, trust auth)
#   scripts/start-postgres.sh --stop DIR  stop the cluster in DIR (DIR itself is left alone)
#
# The cluster listens on a unix socket only, so parallel test workers never fight over a
# TCP port. initdb refuses to run as root, so as root the server runs as 'postgres'.
set -euo pipefail

say() { echo "start-postgres: $*" >&2; }

# The newest server bin folder (Debian's /usr/lib/postgresql/N/bin), else pg_ctl on PATH.
find_bin() {
    local dir
    while read -r dir; do
        if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then
            echo "$dir"
            return 0
        fi
    done < <(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r)
    if command -v pg_ctl >/dev/null && command -v initdb >/dev/null; then
        dirname "$(readlink -f "$(command -v pg_ctl)")"
        return 0
    fi
    return 1
}

install_server() {
    if find_bin >/dev/null; then
        return 0
    fi
    if [ "$(id -u)" != "0" ]; then
        say "PostgreSQL server binaries are missing and we are not root;" \
            "run 'sudo apt-get install -y postgresql' (the PostgreSQL tests skip without it)"
        return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    say "installed $(find_bin || echo 'nothing usable')"
}

# Run a server command as the cluster's owner: ourselves, or 'postgres' when we are root.
as_owner() {
    if [ "$(id -u)" = "0" ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start_cluster() {
    local dir bin url
    mkdir -p "$1"
    dir="$(cd "$1" && pwd)"
    if [[ ! "$dir" =~ ^[A-Za-z0-9/._-]+$ ]]; then
        say "$dir: use a folder whose path has no spaces or special characters"
        exit 2
    fi
    if [ "${#dir}" -gt 90 ]; then  # a unix socket path is limited to ~107 bytes
        say "$dir: path too long for a unix socket; use a short folder under /tmp"
        exit 2
    fi
    if ! bin="$(find_bin)"; then
        say "no PostgreSQL server binaries (initdb, pg_ctl) found"
        exit 3
    fi
    if [ "$(id -u)" = "0" ]; then
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
        chown postgres "$dir"
        if ! runuser -u postgres -- test -w "$dir"; then
            say "$dir is not reachable by the postgres user; use a folder under /tmp"
            exit 2
        fi
    fi
    url="postgresql://postgres@/errdex?host=${dir}&port=5432"
    if [ -f "$dir/data/PG_VERSION" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null; then
        echo "$url"
        return 0
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 \
            --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
        || as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 \
            --no-locale --no-sync >"$dir/initdb.log" 2>&1 \
        || { say "initdb failed:"; cat "$dir/initdb.log" >&2; exit 1; }
    fi
    # Durability off: the cluster is thrown away after the tests.
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
        -o "-c listen_addresses='' -k $dir -p 5432 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null; then
        say "the server did not start:"
        tail -n 20 "$dir/postgres.log" >&2 || true
        exit 1
    fi
    as_owner "$bin/psql" -h "$dir" -p 5432 -U postgres -d postgres -qAt \
        -c "SELECT 1 FROM pg_database WHERE datname = 'errdex'" | grep -q 1 \
    || as_owner "$bin/createdb" -h "$dir" -p 5432 -U postgres errdex
    echo "$url"
}

stop_cluster() {
    local dir bin
    dir="$(cd "$1" && pwd)"
    bin="$(find_bin)" || exit 0
    if [ -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
}

case "${1:-}" in
    "")
        install_server
        ;;
    --stop)
        stop_cluster "${2:?usage: start-postgres.sh --stop DIR}"
        ;;
    -*)
        say "usage: start-postgres.sh [DIR | --stop DIR]"
        exit 2
        ;;
    *)
        install_server
        start_cluster "$1"
        ;;
esac
