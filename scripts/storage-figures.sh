#!/usr/bin/env bash
# Storage figures on a real history (PERFORMANCE.md, "Storage"): imports HISTORY with two builds
# of `replay`, the baseline first, and prints for each the pages the log uses, bytes per
# revision, the import's CPU time, and the CPU time of reading one revision on its own
# (`show REVISION --json`, the median of 5 runs), then xz -9 of HISTORY as the floor.
# Usage: scripts/storage-figures.sh BASELINE_REPLAY REPLAY HISTORY.jsonl [REVISION]
set -euo pipefail
baseline=$1 candidate=$2 history=$3 revision=${4:-3000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.2f", $1 + $2 }'; }
for name in baseline candidate; do
    tool=${!name}
    import=$(cpu "$tool" import "$history" --log "$work/$name" --commit-every 500)
    stats=$("$tool" stats --log "$work/$name")
    reads=$(for _ in 1 2 3 4 5; do cpu "$tool" show "$revision" --log "$work/$name" --json; echo; done | sort -n | sed -n 3p)
    echo "$name: $(grep -E '^on disk' <<<"$stats" | sed 's/  */ /g'); $(grep -E '^per revision' <<<"$stats" | sed 's/  */ /g'); import ${import} s CPU; show $revision ${reads} s CPU"
done
echo "xz -9: $(xz -9 -T1 -c "$history" | wc -c) bytes"
