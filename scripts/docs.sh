#!/usr/bin/env bash
# The API documentation of the libraries, built with DocC (swift-docc-plugin).
#
#   scripts/docs.sh                the check: builds every library's archive and fails on any
#                                  DocC warning (an unresolved or ambiguous symbol link, an
#                                  undocumented parameter, malformed markup); scripts/test.sh
#                                  (and so CI) runs it. The archives are written under
#                                  .build/plugins/Swift-DocC/outputs/.
#   scripts/docs.sh --serve [PORT] builds one site of every library for static hosting into
#                                  .build/docs-site and serves it on http://127.0.0.1:PORT
#                                  (8000 by default) until interrupted. A DocC archive opened
#                                  from file:// shows a blank page: its pages are loaded by
#                                  script and need a web server.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(ListAdapter ListViewBinding ListFormat ChangeLog ChangeLogFile ChangeLogPostgres ChangeLogTools ChangeLogServer)
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done

if [[ ${1:-} == --serve ]]; then
    port=${2:-8000}
    site=.build/docs-site
    rm -rf "$site"
    swift package --allow-writing-to-directory "$site" generate-documentation "${args[@]}" \
        --enable-experimental-combined-documentation --transform-for-static-hosting --output-path "$site"
    command -v python3 >/dev/null 2>&1 || {
        echo "docs.sh: the site is in $site; serve it with any static web server (python3 is not installed)" >&2
        exit 1
    }
    echo "docs.sh: open http://127.0.0.1:$port/documentation/ (Ctrl-C stops the server)" >&2
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site"
fi

swift package generate-documentation "${args[@]}" --analyze --warnings-as-errors
echo "docs.sh: no DocC warnings in ${targets[*]}" >&2
