#!/usr/bin/env bash
# The test command of the README and of CI: installs what the system lacks, checks the
# formatting, builds and runs every test, then builds the API documentation with warnings as
# errors.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift format lint --strict --recursive Package.swift Sources Tests Examples
swift test "$@"
scripts/docs.sh
