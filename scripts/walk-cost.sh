#!/usr/bin/env bash
# The cost of the page walk of untrusted logs (ChangeLog.Options.untrusted), on a log of about
# 1 GB: creates the log with `replay import` (12,000 revisions of 500 unique items), then opens
# it for reading and computes its statistics, as `replay stats` does, with and without the
# walk, alternately, ROUNDS times each (default 3), with the file in the page cache. Prints the
# open and statistics times of each run, the medians and the ratio of the totals.
# Usage: scripts/walk-cost.sh [DIRECTORY] [ROUNDS]   (DIRECTORY keeps the log between runs)
set -euo pipefail
cd "$(dirname "$0")/.."
directory="${1:-$(mktemp -d)}"
rounds="${2:-3}"
log="$directory/walk-cost.lmdb"
# The log is created by a debug build of the tool (its speed does not matter here); the times
# are a release build's.
swift build --product replay >/dev/null
swift build -c release --product ChangeLogWorker >/dev/null
tool="$(swift build --show-bin-path)/replay"
bin="$(swift build -c release --show-bin-path)"
if [[ ! -d "$log" ]]; then
    awk -v n=12000 -v items=500 'BEGIN { srand(7); for (r = 0; r < n; r++) {
        printf "{\"sections\":[{\"title\":\"s\",\"items\":["
        for (i = 0; i < items; i++) {
            if (i) printf ","
            printf "{\"id\":\"r%d-%d\",\"summary\":\"", r, i
            for (k = 0; k < 8; k++) printf "%08x", rand() * 2^32
            printf "\"}"
        }
        printf "]}]}\n" } }' | "$tool" import - --log "$log" --commit-every 200 >/dev/null
fi
echo "log: $(du -h "$log/data.mdb" | cut -f1) in $log"
cat "$log/data.mdb" >/dev/null
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
walked=() plain=()
for round in $(seq "$rounds"); do
    for untrusted in 1 0; do
        line="$("$bin/ChangeLogWorker" time-stats --log "$log" --untrusted "$untrusted")"
        echo "untrusted=$untrusted: $line"
        total="$(awk '{ print $2 + $4 }' <<<"$line")"
        if [[ $untrusted == 1 ]]; then walked+=("$total"); else plain+=("$total"); fi
    done
done
with="$(printf '%s\n' "${walked[@]}" | median)"
without="$(printf '%s\n' "${plain[@]}" | median)"
echo "median open + statistics: $with s with the walk, $without s without; ratio $(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.2f", a / b }')"
