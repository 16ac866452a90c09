#!/usr/bin/env bash
# Builds the API documentation of the libraries with DocC (swift-docc-plugin) and fails on any
# DocC warning: an unresolved or ambiguous symbol link, an undocumented parameter, malformed
# markup. scripts/test.sh (and so CI) runs it. The archives are written under
# .build/plugins/Swift-DocC/outputs/.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(ListAdapter ListFormat ChangeLog ChangeLogTools ChangeLogServer)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
swift package generate-documentation "${args[@]}" --analyze --warnings-as-errors
echo "docs.sh: no DocC warnings in ${targets[*]}" >&2
