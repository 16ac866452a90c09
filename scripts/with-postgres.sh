#!/usr/bin/env bash
# with-postgres.sh CMD [ARG...]: runs CMD with a throwaway PostgreSQL server for the tests. It
# makes a cluster in a temporary directory (initdb), starts it on a free loopback port with its
# socket in that directory (as the unprivileged user `nobody` when run as root, which PostgreSQL
# requires), creates a database, runs CMD with CHANGELOG_TEST_POSTGRES_URL exported
# (postgres://changelog:PASSWORD@127.0.0.1:PORT/changelog_test), and stops and removes the
# cluster when CMD ends, fails or is interrupted. CMD's exit status is the script's.
#
# With CHANGELOG_TEST_POSTGRES_URL already set, CMD runs against that server instead. Without
# PostgreSQL's server binaries (initdb, pg_ctl: scripts/bootstrap.sh --browser installs Debian's
# `postgresql`), CMD runs without the variable: the PostgreSQL tests then skip with one line,
# or fail when CI=true.
set -euo pipefail
(($# > 0)) || { echo "usage: with-postgres.sh CMD [ARG...]" >&2; exit 2; }
if [[ -n ${CHANGELOG_TEST_POSTGRES_URL:-} ]]; then
    exec "$@"
fi

bindir=""
if command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; then
    bindir=$(pg_config --bindir)
fi
if [[ -z $bindir ]]; then
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r) /usr/local/bin /opt/homebrew/bin; do
        if [[ -x $candidate/initdb && -x $candidate/pg_ctl ]]; then bindir=$candidate; break; fi
    done
fi
if [[ -z $bindir ]]; then
    echo "with-postgres.sh: no PostgreSQL server binaries (initdb, pg_ctl): running without a server" >&2
    exec "$@"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/changelog-postgres.XXXXXX")
as=()
if [[ $(id -u) -eq 0 ]]; then
    # PostgreSQL refuses to run as root.
    chown nobody "$work"
    as=(runuser -u nobody --)
fi
chmod 700 "$work"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')

stop() {
    "${as[@]}" "$bindir/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

printf '%s\n' "$password" >"$work/password"
[[ ${#as[@]} -eq 0 ]] || chown nobody "$work/password"
"${as[@]}" "$bindir/initdb" -D "$work/data" -U changelog --pwfile="$work/password" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C >"$work/initdb.log" 2>&1 \
    || { cat "$work/initdb.log" >&2; exit 1; }
"${as[@]}" "$bindir/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $work -c max_connections=300" start >/dev/null \
    || { cat "$work/server.log" >&2; exit 1; }
"${as[@]}" "$bindir/createdb" -h "$work" -p "$port" -U changelog changelog_test

export CHANGELOG_TEST_POSTGRES_URL="postgres://changelog:$password@127.0.0.1:$port/changelog_test"
# What a test needs to stop and start the server (the restart fault test).
export CHANGELOG_TEST_POSTGRES_CTL="${as[*]} $bindir/pg_ctl -D $work/data -l $work/server.log"
echo "with-postgres.sh: PostgreSQL $("$bindir/postgres" --version | awk "{print \$3}") on 127.0.0.1:$port" >&2
status=0
"$@" || status=$?
exit $status
