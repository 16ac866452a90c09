#!/usr/bin/env bash
# The test command of the README and of CI: installs what the system lacks (with the headless
# browser and Node.js the viewer's tests use), checks the formatting, checks and tests the
# viewer's JavaScript with Node.js (scripts/test-js.sh), builds and runs every test (with a
# throwaway PostgreSQL server for the PostgreSQL engine's tests, scripts/with-postgres.sh), fuzzes
# each libFuzzer target for 60 seconds, then builds the API documentation with warnings as
# errors. The sanitizer suites (scripts/sanitize.sh) do not fit CI's 30 minutes on two cores:
# run them by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh --browser
swift format lint --strict --recursive Package.swift Sources Tests Examples
scripts/test-js.sh
# An app that names the package with `traits: []` resolves none of the server's, the tool's or
# the PostgreSQL engine's dependencies, and builds with no system library.
scripts/consumer-footprint.sh --check
# ChangeLog's core and the file engine build with every trait off, linking no system library, as
# such an app builds them (a scratch folder of its own: the traits change every module's flags);
# PlainBuildTests checks the log Examples/PlainLog writes so built against this build's.
swift build --product PlainLog --disable-default-traits --scratch-path .build-nolmdb
export CHANGELOG_TEST_PLAIN_BUILD="$PWD/.build-nolmdb/debug/PlainLog"
# Every module imports only what its target declares (a module reached through another
# dependency's dependencies is an error, not a silent success).
scripts/with-postgres.sh swift test --explicit-target-dependency-import-check error "$@"
scripts/fuzz.sh FuzzImportLine 60
scripts/fuzz.sh FuzzRecordDecoder 60
scripts/docs.sh
