#!/usr/bin/env bash
# Fuzzes one libFuzzer target for SECONDS seconds: scripts/fuzz.sh TARGET SECONDS, where TARGET
# is FuzzImportLine (one import line, SnapshotImporter.decode) or FuzzRecordDecoder (stored
# revision records and chunks).
#
# The target is built with -sanitize=fuzzer,address into .build-fuzz (gitignored) and starts
# from its seed corpus, Fuzz/Corpus/TARGET, which it never changes: the inputs it finds that
# add coverage go to .build-fuzz/corpus/TARGET, kept for the next run. A thrown decoding error
# is the expected outcome for most inputs; a trap, an AddressSanitizer report, an input that
# takes over 10 s or a run over 2 GB is a finding: the input is saved as
# .build-fuzz/findings/TARGET/<kind>-<hash>, the script exits non-zero, and the input replays
# with `.build-fuzz/debug/TARGET <that file>`.
# Prints the number of inputs run (libFuzzer's final stats) and exits with libFuzzer's status.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/fuzz.sh FuzzImportLine|FuzzRecordDecoder SECONDS"
target=${1:?$usage}
seconds=${2:?$usage}
case "$target" in
FuzzImportLine | FuzzRecordDecoder) ;;
*)
    echo "$usage" >&2
    exit 2
    ;;
esac
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || {
    echo "$usage" >&2
    exit 2
}

flags=(--product "$target" --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING)
# ld.gold warns once per AddressSanitizer helper it cannot export; nothing to act on.
swift build "${flags[@]}" 2>&1 | { grep -v "Cannot export local symbol" || true; }
binary="$(swift build "${flags[@]}" --show-bin-path)/$target"

corpus=.build-fuzz/corpus/$target
findings=.build-fuzz/findings/$target
mkdir -p "$corpus" "$findings"
options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1
    -artifact_prefix="$findings/")
[[ -f Fuzz/Dictionaries/$target.dict ]] && options+=(-dict="Fuzz/Dictionaries/$target.dict")
"$binary" "${options[@]}" "$corpus" "Fuzz/Corpus/$target"
