#!/usr/bin/env bash
# The viewer's JavaScript, checked with Node.js 18 or later: `node --check` on every module of the
# page (Sources/ChangeLogServer/Viewer/Files), then `node --test` on its tests (Tests/Viewer): the
# format's `apply` over the conformance cases the Swift tests share
# (Tests/Fixtures/apply-conformance), the event-stream parser, the timeline's window arithmetic,
# an item's life, compare mode, the metadata filter and dropped exports (over the fixtures in
# Tests/Viewer/fixtures, shaped as the history routes answer). The page itself runs in headless
# Chromium in the Swift tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1; then
    echo "test-js: node is not on the PATH; scripts/bootstrap.sh --browser installs it (apt-get install -y nodejs)" >&2
    exit 1
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if ((major < 18)); then
    echo "test-js: node $(node --version) is too old: node --test needs Node.js 18 or later" >&2
    exit 1
fi
modules=(Sources/ChangeLogServer/Viewer/Files/*.mjs)
for module in "${modules[@]}"; do node --check "$module"; done
echo "test-js: node --check passed on ${#modules[@]} modules"
node --test --test-reporter=spec Tests/Viewer/*.test.mjs
