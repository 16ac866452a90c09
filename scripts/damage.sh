#!/usr/bin/env bash
# The damage suite at length: N damaged copies of a demo log (bit flips, truncations, swapped
# pages, a page of random bytes, meta-page edits, in turn), each read by `replay verify`,
# `export`, `show 1` and `stats`; prints how the runs ended and every crash with its seed, copy
# and command. Usage: scripts/damage.sh N [SEED] [swift test options, e.g. -c release].
# The test suite runs 40 copies (Tests/ReplayTests/DamageSuiteTests.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:?usage: scripts/damage.sh N [SEED] [swift test options]}"
seed="${2:-2026}"
shift $(( $# >= 2 ? 2 : 1 ))
export DAMAGE_COPIES="$count" DAMAGE_SEED="$seed"
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
status=0
swift test --filter DamageSuiteTests "$@" >"$output" 2>&1 || status=$?
if ! grep '^damage suite: ' "$output"; then
    cat "$output"
    exit "${status:-1}"
fi
exit "$status"
