#!/usr/bin/env bash
# server-share.sh [SECONDS]: the server's share of an append on PostgreSQL, measured with
# pgbench (C, libpq: no thread hops of this process) on the tables the library creates, each
# case for SECONDS (default 5), three rounds, alternating:
#   raw     a single-row INSERT of 2,341 bytes (the bytes a churn revision stores), autocommit
#   call    SELECT changelog_append(...): a record and three chunks of those bytes, one request
#   steps   the five-statement transaction (BEGIN, lock, end read, puts and notify, COMMIT)
# CASES="raw call" picks cases. The call looks the previous record up in SQL, which a client
# sends instead: a little more than the library's call. Run it under scripts/with-postgres.sh,
# after `swift build --product replay` (it creates the tables by recording a demo log):
#   scripts/with-postgres.sh Benchmarks/pgbench/server-share.sh
set -euo pipefail
seconds=${1:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
url=${CHANGELOG_TEST_POSTGRES_URL:?run under scripts/with-postgres.sh}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r | head -1)
pgbench=${PGBENCH:-$bindir/pgbench}
psql=${PSQL:-$bindir/psql}
"$root/.build/debug/replay" demo --log "$url?log=pgbench-share" --revisions 1 >/dev/null
"$psql" -X -q -v ON_ERROR_STOP=1 "$url" -f "$here/setup.sql"
log="(SELECT id FROM changelog_logs WHERE name = 'pgbench-appends')"
for round in 1 2 3; do
    for case in ${CASES:-raw call steps}; do
        "$psql" -X -q "$url" -c "DELETE FROM changelog_chunks WHERE log_id = $log; DELETE FROM changelog_records WHERE log_id = $log; DELETE FROM pgbench_raw"
        done=$("$pgbench" -n -M extended -D rev=0 -c 1 -T "$seconds" -f "$here/$case.sql" "$url" 2>&1)
        stored=$("$psql" -X -A -t "$url" -c "SELECT (SELECT count(*) FROM changelog_records WHERE log_id = $log) + (SELECT count(*) FROM pgbench_raw)")
        printf 'round %s %-6s %s, %s (%s revisions stored)\n' "$round" "$case" \
            "$(grep -o 'latency average = .*' <<<"$done")" \
            "$(grep -o 'number of transactions actually processed: [0-9]*' <<<"$done")" "$stored"
    done
done
