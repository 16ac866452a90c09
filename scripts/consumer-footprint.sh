#!/usr/bin/env bash
# consumer-footprint.sh [PRODUCT...]: what an app pays for depending on this package: a
# throwaway consumer package (in a temporary directory) that uses PRODUCTs (by default
# ListAdapter and ListViewBinding) is resolved and built from clean twice, once naming the
# package with `traits: []` and once with its default traits (the server and the tool), and
# for each the packages resolved, the size of its build folder and the clean build's time are
# printed.
#
#   scripts/consumer-footprint.sh
#   scripts/consumer-footprint.sh ListAdapter ListViewBinding ChangeLog
#   scripts/consumer-footprint.sh --check   resolves only: fails if the libraries, with
#                                           traits: [], pull in anything but swift-system
#                                           (postgres-nio, swift-nio-ssl, Hummingbird, ...)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
products=("$@")
[[ ${#products[@]} -gt 0 ]] || products=(ListAdapter ListViewBinding)
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

if [[ ${products[0]} == --check ]]; then
    # What scripts/test.sh runs: with `traits: []`, the libraries resolve swift-system alone.
    products=(ListAdapter ListViewBinding ListFormat ChangeLog)
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
    echo "consumer-footprint.sh: an app using ${products[*]} with traits: [] resolves swift-system alone" >&2
    exit 0
fi

printf '%-16s %9s %12s %14s\n' "traits" "packages" "build folder" "clean build"
for variant in none default; do
    dir="$work/$variant"
    if [[ $variant == none ]]; then consumer "$dir" ", traits: []"; else consumer "$dir" ""; fi
    start=$(date +%s.%N)
    (cd "$dir" && swift build >"$dir.log" 2>&1) || { cat "$dir.log" >&2; exit 1; }
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    packages=$(resolved "$dir" | wc -l)
    size=$(du -sh "$dir/.build" | cut -f1)
    label=$([[ $variant == none ]] && echo "traits: []" || echo "default")
    printf '%-16s %9s %12s %13.0fs\n' "$label" "$packages" "$size" "$seconds"
done
echo "products: ${products[*]}"
