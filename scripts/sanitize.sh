#!/usr/bin/env bash
# Sanitizers as a standing check: scripts/sanitize.sh [thread] [address] (both by default).
#
# - thread: the suites that run work concurrently (tasks, threads, dispatch queues, worker
#   processes and `replay` children) under ThreadSanitizer, built into .build-tsan.
# - address: the ChangeLog, ChangeLogTools and replay suites under AddressSanitizer (memory errors; leak
#   checking off, see below), built into .build-asan.
#
# The child processes the tests start (the `replay` and ChangeLogWorker of the same build)
# inherit TSAN_OPTIONS and ASAN_OPTIONS. A sanitizer report makes the process it happens in
# exit with status 66: the test process itself, or a child, whose test then fails. So the
# script exits 0 only when every selected test passes and no process reported anything.
#
# scripts/sanitizers/tsan.supp suppresses one false positive, the accesses inside
# `Synchronization.Mutex.withLock` (the file says why, and how to reproduce it with
# scripts/sanitizers/mutex-reproducer.swift).
set -euo pipefail
cd "$(dirname "$0")/.."

# Suites whose tests start tasks, threads or processes that touch shared state.
thread_suites='ConcurrentWriterTests|SubscriptionTests|MultiProcessTests|RecorderTests|LogFileWatcherTests'
thread_suites+='|ReadOnlyTests|MapResizeTests|ChangeLogWritingTests|TailAndDemoTests|EndlessInputTests'
thread_suites+='|ListAdapterTests\.ListAdapterTests|ListConnectorTests|AdapterSoakTests'
# Every suite of the ChangeLog, ChangeLogTools and replay test targets.
address_suites='^ChangeLogTests\.|^ChangeLogToolsTests\.|^ReplayTests\.'

run() {
    local sanitizer=$1 scratch=$2 filter=$3
    echo "== $sanitizer sanitizer: building into $scratch"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    echo "== $sanitizer sanitizer: running $filter"
    swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" --filter "$filter"
}

# The reproducer of the Mutex false positive still reports without the suppression and runs
# clean with it; when a toolchain stops reporting it, the suppression is no longer needed.
mutex_false_positive() {
    local binary=.build-tsan/mutex-reproducer status=0
    mkdir -p .build-tsan
    swiftc -g -sanitize=thread scripts/sanitizers/mutex-reproducer.swift -o "$binary"
    # A race is only seen when two critical sections overlap in time: almost always, but the
    # threads may happen to run one after the other, so up to three runs.
    for _ in 1 2 3; do
        status=0
        "$binary" > /dev/null 2>&1 || status=$?
        [[ $status -ne 66 ]] || break
    done
    if [[ $status -ne 66 ]]; then
        echo "the Mutex reproducer exited with $status, not TSan's 66: is tsan.supp still needed?" >&2
        exit 1
    fi
    TSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/tsan.supp" "$binary" > /dev/null
    echo "== thread sanitizer: the Mutex false positive reproduces, and tsan.supp suppresses it"
}

sanitizers=("$@")
[[ ${#sanitizers[@]} -gt 0 ]] || sanitizers=(thread address)
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
    thread)
        mutex_false_positive
        TSAN_OPTIONS="suppressions=$PWD/scripts/sanitizers/tsan.supp ${TSAN_OPTIONS:-}" \
            run thread .build-tsan "$thread_suites"
        ;;
    address)
        # Memory errors only: LeakSanitizer reports, at the exit of Swift processes, memory
        # this package does not own (the XCTest harness, swift-argument-parser exiting from
        # inside parsing, FoundationEssentials reading an empty file), so it is off here.
        ASAN_OPTIONS="detect_leaks=0 suppressions=$PWD/scripts/sanitizers/asan.supp ${ASAN_OPTIONS:-}" \
            run address .build-asan "$address_suites"
        ;;
    *)
        echo "usage: scripts/sanitize.sh [thread] [address]" >&2
        exit 2
        ;;
    esac
done
echo "== sanitizers clean: ${sanitizers[*]}"
