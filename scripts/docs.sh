#!/usr/bin/env bash
# Builds the API documentation of ListAdapter and ChangeLog with DocC into a temporary
# directory, and fails on any DocC warning: an unresolved or ambiguous symbol link, an
# undocumented parameter, malformed markup. Not part of scripts/test.sh or CI.
#
# Arguments go to `swift build` and `swift package`, for example `--scratch-path /tmp/build`.
# The symbol graphs come from `swift package dump-symbol-graph` (no swift-docc-plugin needed).
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v docc >/dev/null; then
    docc=(docc)
elif command -v xcrun >/dev/null && xcrun --find docc >/dev/null 2>&1; then
    docc=(xcrun docc)
else
    echo "docs.sh: docc not found; it ships with the Swift toolchain (usr/bin/docc)" >&2
    exit 1
fi

out="$(mktemp -d "${TMPDIR:-/tmp}/listchangelog-docs.XXXXXX")"
# dump-symbol-graph extracts every module of the package, the test runners' too, so it needs
# the tests built; `swift test` shares that build.
swift build "$@" --build-tests
swift package "$@" dump-symbol-graph
graphs="$(dirname "$(swift build "$@" --show-bin-path)")/symbolgraph"

shopt -s nullglob
for module in ListAdapter ChangeLog; do
    # Only this module's graphs: its own and those of its extensions to other modules' types.
    mkdir -p "$out/symbol-graphs/$module"
    cp "$graphs/$module.symbols.json" "$graphs/$module@"*.symbols.json "$out/symbol-graphs/$module/"
    echo "docs.sh: $module" >&2
    "${docc[@]}" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
        --output-path "$out/$module.doccarchive" \
        --analyze --warnings-as-errors
done
echo "docs.sh: no DocC warnings; the archives are in $out" >&2
