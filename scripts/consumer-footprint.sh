#!/usr/bin/env bash
# consumer-footprint.sh [PRODUCT...]: what an app pays for depending on this package: a
# throwaway consumer package (in a temporary directory) that uses PRODUCTs (by default
# ListAdapter, ListViewBinding and ChangeLogFile, an app recording to the file engine) is
# resolved and built from clean twice, once naming the package with `traits: []` and once with
# its default traits (LMDB, the server and the tool), and for each the packages resolved, the
# size of its build folder, the clean build's time and whether it links LMDB are printed.
#
#   scripts/consumer-footprint.sh
#   scripts/consumer-footprint.sh ListAdapter ListViewBinding ChangeLog
#   scripts/consumer-footprint.sh --check   resolves and plans the build, compiles nothing:
#                                           fails if the default products, with traits: [],
#                                           pull in anything but swift-system (postgres-nio,
#                                           swift-nio-ssl, Hummingbird, ...) or plan any
#                                           system-library target (CLMDB, CXXHash, CZstd,
#                                           CZlib) or link its library; and, as the check's
#                                           own check, if with traits: ["LMDB", "Zstd"]
#                                           the plan names neither CLMDB nor CZstd
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
products=("$@")
[[ ${#products[@]} -gt 0 ]] || products=(ListAdapter ListViewBinding ChangeLogFile)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=$(basename "$root")

consumer() { # consumer DIR TRAITS_ARGUMENT
    mkdir -p "$1/Sources/App"
    local uses="" imports=""
    for product in "${products[@]}"; do
        uses+=".product(name: \"$product\", package: \"$name\"), "
        imports+="import $product"$'\n'
    done
    cat >"$1/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "App", platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$root"$2)],
    targets: [.executableTarget(name: "App", dependencies: [$uses])])
MANIFEST
    printf '%sprint("ok")\n' "$imports" >"$1/Sources/App/main.swift"
}

resolved() { # the packages DIR's consumer resolves, one per line, this one left out
    (cd "$1" && swift package show-dependencies --format flatlist 2>/dev/null) | sort -u | grep -vx "$name" || true
}

# The system-library modules and libraries DIR's consumer plans to build its app with, one per
# line: what the app's own compile and link commands in the build manifest name of the
# package's system-library targets and their libraries (the manifest also plans the package's
# executables, `replay` among them, which an app never builds).
# Plans the build first (`plan DIR`, outside a command substitution, so that a failure exits).
plan() { # plan DIR
    (cd "$1" && swift build --print-manifest-job-graph >/dev/null 2>"$1.plan.log") || {
        cat "$1.plan.log" >&2
        exit 1
    }
}
system_libraries() { # system_libraries DIR, after plan DIR
    grep -F '"-module-name","App"' "$1/.build/debug.yaml" |
        grep -oE '\b(CLMDB|CXXHash|CZstd|CZlib)\b|-l(lmdb|xxhash|zstd|z)\b' | sort -u || true
}

# Whether DIR's consumer builds with LMDB: its build manifest (.build/debug.yaml, the commands
# of the build, written by planning it without compiling anything) names the CLMDB module or
# links liblmdb.
links_lmdb() { # links_lmdb DIR
    (cd "$1" && swift build --print-manifest-job-graph >/dev/null 2>"$1.plan.log") || {
        cat "$1.plan.log" >&2
        exit 1
    }
    grep -qE 'CLMDB|-llmdb' "$1/.build/debug.yaml"
}

if [[ ${products[0]} == --check ]]; then
    # What scripts/test.sh runs: with `traits: []`, the libraries resolve swift-system alone and
    # build without LMDB.
    products=(ListAdapter ListViewBinding ChangeLogFile)
    consumer "$work/check" ", traits: []"
    (cd "$work/check" && swift package resolve >"$work/check.log" 2>&1) || { cat "$work/check.log" >&2; exit 1; }
    extra=$(resolved "$work/check" | grep -vx swift-system || true)
    # Named first: the PostgreSQL engine's client and its TLS are the heaviest to build.
    if grep -qx -e postgres-nio -e swift-nio-ssl <<<"$extra"; then
        echo "consumer-footprint.sh: an app using ${products[*]} with traits: [] resolves postgres-nio" >&2
        exit 1
    fi
    if [[ -n $extra ]]; then
        echo "consumer-footprint.sh: an app using ${products[*]} with traits: [] resolves more than swift-system:" $extra >&2
        exit 1
    fi
    plan "$work/check"
    linked=$(system_libraries "$work/check")
    if [[ -n $linked ]]; then
        echo "consumer-footprint.sh: an app using ${products[*]} with traits: [] builds with system libraries:" \
            $linked >&2
        exit 1
    fi
    # The same plan with the traits on names LMDB and zstd: the test above can fail.
    consumer "$work/traits" ', traits: ["LMDB", "Zstd"]'
    plan "$work/traits"
    linked=$(system_libraries "$work/traits")
    if ! grep -qx CLMDB <<<"$linked" || ! grep -qx CZstd <<<"$linked"; then
        echo "consumer-footprint.sh: with traits: [\"LMDB\", \"Zstd\"] the build plan names" \
            "${linked:-no system library}, not CLMDB and CZstd: the check sees nothing" >&2
        exit 1
    fi
    echo "consumer-footprint.sh: an app using ${products[*]} with traits: [] resolves swift-system alone" \
        "and builds with no system library" >&2
    exit 0
fi

printf '%-16s %9s %12s %14s %6s\n' "traits" "packages" "build folder" "clean build" "LMDB"
for variant in none default; do
    dir="$work/$variant"
    if [[ $variant == none ]]; then consumer "$dir" ", traits: []"; else consumer "$dir" ""; fi
    start=$(date +%s.%N)
    (cd "$dir" && swift build >"$dir.log" 2>&1) || { cat "$dir.log" >&2; exit 1; }
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    packages=$(resolved "$dir" | wc -l)
    size=$(du -sh "$dir/.build" | cut -f1)
    label=$([[ $variant == none ]] && echo "traits: []" || echo "default")
    lmdb=$(links_lmdb "$dir" && echo yes || echo no)
    printf '%-16s %9s %12s %13.0fs %6s\n' "$label" "$packages" "$size" "$seconds" "$lmdb"
done
echo "products: ${products[*]}"
