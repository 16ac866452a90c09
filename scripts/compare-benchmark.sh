#!/usr/bin/env bash
# Compares one benchmark of ChangeLogBenchmarks between two commits, side by side in one run:
# builds the benchmark binary of each commit (release, in temporary copies of the repository),
# then runs the two binaries alternately ROUNDS times on the same machine, and prints each
# round's p50 wall-clock time and the ratio new/old, with the median ratio. Alternating keeps
# the load of a shared machine about the same for both.
#
#   scripts/compare-benchmark.sh OLD_COMMIT NEW_COMMIT "catch-up read: records.*" [ROUNDS]
set -euo pipefail

old=$1
new=$2
filter=$3
rounds=${4:-10}
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for side in old new; do
    commit=${!side}
    mkdir -p "$work/$side"
    git -C "$repo" archive "$commit" | tar -x -C "$work/$side"
    swift build -c release --package-path "$work/$side/Benchmarks" --product ChangeLogBenchmarks >&2
done

p50() {
    # The wall clock's p50, in milliseconds, from a benchmark binary's direct-run output.
    awk '/^Time \(wall clock\):/ { inside = 1 } inside && $2 + 0 >= 0.5 && $1 ~ /^[0-9.]+$/ { printf "%.1f", $1 / 1e6; exit }' "$1"
}

ratios=()
for round in $(seq 1 "$rounds"); do
    for side in old new; do
        LD_LIBRARY_PATH="$work/$side/Benchmarks/.build/release" \
            "$work/$side/Benchmarks/.build/release/ChangeLogBenchmarks" --filter "$filter" >"$work/$side.txt" 2>&1
    done
    o=$(p50 "$work/old.txt")
    n=$(p50 "$work/new.txt")
    ratio=$(awk -v o="$o" -v n="$n" 'BEGIN { printf "%.3f", n / o }')
    ratios+=("$ratio")
    echo "round $round: old $o ms, new $n ms, new/old $ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { printf "median new/old: %.3f\n", (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'
