#!/usr/bin/env bash
# The README's main job: installs what the system lacks, builds the tool in release mode and
# runs `replay demo` on its embedded default history.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift run -c release replay demo "$@"
