#!/usr/bin/env bash
# Installs what the system lacks: the C libraries the package links, LMDB (liblmdb-dev), zlib
# (zlib1g-dev), zstd (libzstd-dev) and xxHash (libxxhash-dev), found through pkg-config; with --browser (the test mode), also what the
# viewer's tests use: the headless browser they drive (Debian's chromium) and Node.js, which checks
# and tests the page's JavaScript (Debian's nodejs, 18 or later), and the PostgreSQL server the
# PostgreSQL engine's tests start (Debian's postgresql; scripts/with-postgres.sh).
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists lmdb 2>/dev/null || missing+=(liblmdb-dev)
pkg-config --exists libxxhash 2>/dev/null || missing+=(libxxhash-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
pkg-config --exists libzstd 2>/dev/null || missing+=(libzstd-dev)
if [[ ${1:-} == --browser ]] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    missing+=(chromium)
fi
if [[ ${1:-} == --browser ]] && ! command -v node >/dev/null 2>&1; then
    missing+=(nodejs)
fi
if [[ ${1:-} == --browser ]] && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null \
    && ! { command -v pg_config >/dev/null 2>&1 && [[ -x "$(pg_config --bindir)/initdb" ]]; }; then
    missing+=(postgresql)
fi
((${#missing[@]} == 0)) && exit 0

if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    echo "bootstrap: installing ${missing[*]} with apt-get" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
    echo "bootstrap: missing ${missing[*]}; install LMDB, zstd and xxHash with pkg-config files (and Chromium, Node.js 18 or later and PostgreSQL for the tests)" >&2
    echo "  macOS: brew install lmdb xxhash zstd pkg-config; brew install --cask chromium; brew install node postgresql" >&2
    echo "  Fedora: dnf install lmdb-devel xxhash-devel libzstd-devel pkgconf chromium nodejs postgresql-server" >&2
    exit 1
fi
