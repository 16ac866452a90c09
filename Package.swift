// swift-tools-version: 6.2
import PackageDescription

// Every product is licensed under the Apache License 2.0 (LICENSE).

let package = Package(
    name: "ListChangeLog",
    // The floor is the Synchronization module's. ListAdapter, ListFormat, ListViewBinding, and
    // ChangeLog and ChangeLogFile without the traits `LMDB` and `Zstd`, link no system library and
    // build for every one of these; with `Zstd` ChangeLog links zstd, with `LMDB` LMDB, and the
    // server and the tool both, through pkg-config, so macOS and Linux only.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ListAdapter", targets: ["ListAdapter"]),
        .library(name: "ListFormat", targets: ["ListFormat"]),
        .library(name: "ListViewBinding", targets: ["ListViewBinding"]),
        .library(name: "ChangeLog", targets: ["ChangeLog"]),
        .library(name: "ChangeLogFile", targets: ["ChangeLogFile"]),
        // The log on PostgreSQL, for logs shared by many machines: only its users build postgres-nio.
        .library(name: "ChangeLogPostgres", targets: ["ChangeLogPostgres"]),
        // The tool's library, for `replay` and the benchmarks: an app embedding a log needs ChangeLog alone.
        .library(name: "ChangeLogTools", targets: ["ChangeLogTools"]),
        .library(name: "ChangeLogServer", targets: ["ChangeLogServer"]),
        .executable(name: "replay", targets: ["replay"]),
    ],
    // The server's and the tool's dependencies are guarded by the traits `Server` and `Tool`, both
    // on by default: an app that names the package with `traits: []` and uses the libraries
    // (ListAdapter, ListViewBinding, ListFormat, ChangeLog, ChangeLogFile) resolves, fetches and
    // builds none of them. The trait `LMDB` (on by default, and with `Tool`) compiles ChangeLog's
    // LMDB engine and links the system's liblmdb: without it ChangeLog is the engine-independent
    // core, which the file engine (ChangeLogFile) opens, and builds wherever Swift does.
    traits: [
        .trait(
            name: "LMDB",
            description: "ChangeLog's LMDB engine, `ChangeLog(path:)`: links liblmdb (macOS and Linux)."),
        .trait(
            name: "Zstd",
            description: "Compressed chunks: links libzstd. Without it chunks are stored uncompressed and a "
                + "compressed one is refused with a clear error."),
        .trait(
            name: "Server", description: "The HTTP server (ChangeLogServer): Hummingbird, SwiftNIO, swift-log.",
            enabledTraits: ["Zstd"]),
        .trait(
            name: "Tool", description: "The replay tool and its library (ChangeLogTools): swift-argument-parser.",
            enabledTraits: ["Server", "LMDB", "Zstd"]),
        .trait(name: "Tests", description: "What the package's own tests add: swift-property-based."),
        .trait(name: "Postgres", description: "The log on PostgreSQL (ChangeLogPostgres): postgres-nio."),
        .default(enabledTraits: ["LMDB", "Zstd", "Server", "Tool", "Tests", "Postgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.25.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        // libxxhash, for the tests that compare the log's XXH3 in Swift with the C reference.
        .systemLibrary(
            name: "CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"]), .brew(["xxhash"])]
        ),
        // Reads gzipped exports (`replay verify --input export.jsonl.gz`), in-process.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Compresses the log's chunks, with a dictionary trained on the log's own chunks.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        .target(name: "CFileWriteback"),
        .target(name: "CStandardStreams"),
        .target(name: "ListAdapter"),
        // Drives UITableView and UICollectionView from a ListAdapter, through protocols that name
        // exactly the UIKit methods it calls.
        .target(name: "ListViewBinding", dependencies: ["ListAdapter"]),
        // The interchange format as text, both ways: the strict reader and the ordered writer.
        .target(name: "ListFormat", dependencies: ["ListAdapter"]),
        .target(
            name: "ChangeLog",
            dependencies: [
                "ListAdapter", "ListFormat", "CFileWriteback",
                .target(name: "CZstd", condition: .when(traits: ["Zstd"])),
                .target(name: "CLMDB", condition: .when(traits: ["LMDB"])),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["LMDB/Defences/DAMAGE.md"]),
        // The log on one append-only file, for apps that record where LMDB is not at hand.
        .target(
            name: "ChangeLogFile",
            dependencies: ["ChangeLog", .product(name: "SystemPackage", package: "swift-system")]),
        // The log in a PostgreSQL database, many named logs in one: for logs shared by many machines.
        .target(
            name: "ChangeLogPostgres",
            dependencies: [
                "ChangeLog",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Postgres"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
            ]),
        // What only the tool needs, over the log: the history reducer and its oracles, the snapshot
        // importer, the text renderers. `replay` (and the benchmarks) use it; apps need ChangeLog alone.
        .target(name: "ChangeLogTools", dependencies: ["ChangeLog", "ListAdapter", "ListFormat"]),
        // The HTTP face of a log: read-only routes and Server-Sent Events over ChangeLog's public API.
        .target(
            name: "ChangeLogServer",
            dependencies: [
                "ChangeLog", "ListAdapter", "ListFormat",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
            ],
            // The viewer's page, style sheet and scripts, built into the binary: `replay` stays one file.
            resources: [.embedInCode("Viewer/Files")]),
        .executableTarget(
            name: "replay",
            dependencies: [
                "ChangeLog", "ChangeLogFile", "ChangeLogTools", "ChangeLogServer", "ListAdapter", "ListFormat",
                "CStandardStreams",
                .target(name: "ChangeLogPostgres", condition: .when(traits: ["Postgres"])),
                "CZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Tool"])),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The README's complete program; ReadmeProgramTests runs it and compares the README's copy.
        .executableTarget(name: "TodoLog", dependencies: ["ChangeLog", "ListAdapter"], path: "Examples/TodoLog"),
        // An app's log with no trait: scripts/test.sh builds it with every trait off, and
        // PlainBuildTests checks what it writes and reads against this build's.
        .executableTarget(
            name: "PlainLog", dependencies: ["ChangeLog", "ChangeLogFile", "ListAdapter"], path: "Examples/PlainLog"),
        .executableTarget(
            name: "ChangeLogWorker",
            dependencies: [
                "ChangeLog", "ChangeLogFile", "ChangeLogTools", "ListAdapter", "CLMDB", "ChangeLogTestSupport",
                .target(name: "ChangeLogPostgres", condition: .when(traits: ["Postgres"])),
            ],
            path: "Tests/ChangeLogWorker"),
        // libFuzzer targets, built and run by scripts/fuzz.sh; a plain build links an empty main.
        .executableTarget(
            name: "FuzzImportLine", dependencies: ["ChangeLog", "ChangeLogTools"], path: "Tests/Fuzz/FuzzImportLine"),
        .executableTarget(
            name: "FuzzRecordDecoder", dependencies: ["ChangeLog"], path: "Tests/Fuzz/FuzzRecordDecoder"),
        // What the worker writes and the tests check, shared by both.
        .target(
            name: "ChangeLogTestSupport", dependencies: ["ChangeLog", "ChangeLogTools", "ListAdapter"],
            path: "Tests/ChangeLogTestSupport"),
        .testTarget(
            name: "ListAdapterTests",
            dependencies: [
                "ListAdapter", "ListFormat",
                .product(name: "PropertyBased", package: "swift-property-based", condition: .when(traits: ["Tests"])),
            ]),
        .testTarget(name: "ListFormatTests", dependencies: ["ListFormat", "ListAdapter"]),
        .testTarget(name: "ListViewBindingTests", dependencies: ["ListViewBinding", "ListAdapter"]),
        .testTarget(
            name: "ChangeLogTests",
            dependencies: [
                "ChangeLog", "ListAdapter", "ListFormat", "CLMDB", "CFileWriteback", "ChangeLogTestSupport", "CXXHash",
            ]),
        .testTarget(
            name: "ChangeLogFileTests",
            dependencies: ["ChangeLogFile", "ChangeLog", "ListAdapter", "ChangeLogTestSupport", "ChangeLogWorker"]),
        // The engine conformance suite (Tests/ChangeLogTestSupport/EngineConformance) on every
        // engine: LMDB, the file engine, PostgreSQL, the in-memory test engine.
        .testTarget(
            name: "EngineConformanceTests",
            dependencies: [
                "ChangeLog", "ChangeLogFile", "ChangeLogTestSupport", "ListAdapter", "ChangeLogWorker",
                .target(name: "ChangeLogPostgres", condition: .when(traits: ["Postgres"])),
            ]),
        .testTarget(
            name: "ChangeLogPostgresTests",
            dependencies: [
                "ChangeLogPostgres", "ChangeLog", "ListAdapter", "ChangeLogTestSupport", "ChangeLogWorker", "replay",
            ]),
        .testTarget(
            name: "ChangeLogToolsTests",
            dependencies: ["ChangeLogTools", "ChangeLog", "ListAdapter", "ListFormat", "ChangeLogTestSupport"]),
        .testTarget(
            name: "ChangeLogServerTests",
            dependencies: [
                "ChangeLogServer", "ChangeLog", "ListAdapter", "ChangeLogTestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ]),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "ChangeLog", "ChangeLogFile", "ChangeLogTools", "ListAdapter", "ListFormat", "CLMDB",
                "ChangeLogTestSupport", "replay",
                .target(name: "ChangeLogPostgres", condition: .when(traits: ["Postgres"])),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
