// swift-tools-version: 6.1
// The benchmarks live in their own package so that `swift test` at the root never builds them.
// Run them with `swift package --package-path Benchmarks benchmark` (see the README).
import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ListChangeLog", path: ".."),
        .package(
            url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // The raw PostgreSQL baselines talk to the server through the same client as the engine.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    ],
    targets: [
        .executableTarget(
            name: "DiffBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ListAdapter", package: "ListChangeLog"),
            ],
            path: "Benchmarks/DiffBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "ChangeLogBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                "RawLMDB",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ChangeLog", package: "ListChangeLog"),
                .product(name: "ChangeLogFile", package: "ListChangeLog"),
                .product(name: "ChangeLogPostgres", package: "ListChangeLog"),
                .product(name: "ChangeLogTools", package: "ListChangeLog"),
                .product(name: "ListAdapter", package: "ListChangeLog"),
                .product(name: "ListFormat", package: "ListChangeLog"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Benchmarks/ChangeLogBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "ReduceBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ChangeLog", package: "ListChangeLog"),
                .product(name: "ChangeLogTools", package: "ListChangeLog"),
                .product(name: "ListAdapter", package: "ListChangeLog"),
            ],
            path: "Benchmarks/ReduceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "ServerBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ChangeLog", package: "ListChangeLog"),
                .product(name: "ChangeLogServer", package: "ListChangeLog"),
            ],
            path: "Benchmarks/ServerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "HashBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                "CXXHashRaw",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ChangeLog", package: "ListChangeLog"),
            ],
            path: "Benchmarks/HashBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // libxxhash, the C baseline of the log's XXH3 in Swift, declared here as CLMDBRaw is.
        .systemLibrary(
            name: "CXXHashRaw",
            path: "CXXHashRaw",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"]), .brew(["xxhash"])]
        ),
        // The raw LMDB baseline: the root package keeps its CLMDB module to itself, so the
        // benchmarks declare their own system library over the same <lmdb.h>.
        .systemLibrary(
            name: "CLMDBRaw",
            path: "CLMDBRaw",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        .target(name: "RawLMDB", dependencies: ["CLMDBRaw"], path: "RawLMDB"),
        // What the benchmark targets share: the fixed-seed generator of their workloads.
        .target(name: "BenchmarkSupport", path: "BenchmarkSupport"),
    ],
    swiftLanguageModes: [.v6]
)
