// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ListChangeLog",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ListAdapter", targets: ["ListAdapter"]),
        .library(name: "ChangeLog", targets: ["ChangeLog"]),
        .executable(name: "replay", targets: ["replay"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        .systemLibrary(
            name: "CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"]), .brew(["xxhash"])]
        ),
        .target(name: "CFileWriteback"),
        .target(name: "CStandardStreams"),
        .target(name: "ListAdapter"),
        .target(
            name: "ChangeLog",
            dependencies: [
                "ListAdapter", "CLMDB", "CXXHash", "CFileWriteback",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["LMDB/Defences/DAMAGE.md"]),
        .executableTarget(
            name: "replay",
            dependencies: [
                "ChangeLog", "ListAdapter", "CStandardStreams",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(
            name: "ChangeLogWorker", dependencies: ["ChangeLog", "ListAdapter", "CLMDB", "ChangeLogTestSupport"],
            path: "Tests/ChangeLogWorker"),
        // libFuzzer targets, built and run by scripts/fuzz.sh; a plain build links an empty main.
        .executableTarget(name: "FuzzImportLine", dependencies: ["ChangeLog"], path: "Tests/Fuzz/FuzzImportLine"),
        .executableTarget(
            name: "FuzzRecordDecoder", dependencies: ["ChangeLog"], path: "Tests/Fuzz/FuzzRecordDecoder"),
        // What the worker writes and the tests check, shared by both.
        .target(
            name: "ChangeLogTestSupport", dependencies: ["ChangeLog", "ListAdapter"], path: "Tests/ChangeLogTestSupport"
        ),
        .testTarget(
            name: "ListAdapterTests",
            dependencies: ["ListAdapter", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "ChangeLogTests",
            dependencies: ["ChangeLog", "ListAdapter", "CLMDB", "CFileWriteback", "ChangeLogTestSupport"]),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "ChangeLog", "ListAdapter", "CLMDB", "ChangeLogTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
