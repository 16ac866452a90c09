#!/usr/bin/env bash
# Installs the C libraries the package links when the system lacks them:
# LMDB (liblmdb-dev) and xxHash (libxxhash-dev), found through pkg-config.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists lmdb 2>/dev/null || missing+=(liblmdb-dev)
pkg-config --exists libxxhash 2>/dev/null || missing+=(libxxhash-dev)
((${#missing[@]} == 0)) && exit 0

if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    echo "bootstrap: installing ${missing[*]} with apt-get" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
    echo "bootstrap: missing ${missing[*]}; install LMDB and xxHash with pkg-config files" >&2
    echo "  macOS: brew install lmdb xxhash pkg-config" >&2
    echo "  Fedora: dnf install lmdb-devel xxhash-devel pkgconf" >&2
    exit 1
fi
