// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "photosync",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GraphStore", targets: ["GraphStore"]),
        .executable(name: "photosync", targets: ["photosync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // `make docs` only: the DocC catalog in Sources/GraphStore/GraphStore.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: C shims
        // libcurl through dlopen (see include/ccurl.h); needs the libcurl4-openssl-dev headers.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // libpq through dlopen (see include/clibpq.h); needs the libpq-dev headers.
        .target(
            name: "CLibPQ",
            linkerSettings: [.linkedLibrary("dl")]
        ),

        // MARK: Layers
        .target(
            name: "GraphStore",
            dependencies: [
                "CLibPQ",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PhotoFeed",
            dependencies: ["CCurl"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PhotoSyncKit",
            dependencies: [
                "GraphStore",
                "PhotoFeed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                // `serve`'s sockets (FlyingFox's socket layer; see docs/serve.md).
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: strictSettings
        ),
        // The links benchmark's GraphStore side (Benchmarks/links_bench.py, `make bench`).
        .executableTarget(
            name: "links-bench",
            dependencies: ["GraphStore"],
            path: "Benchmarks/links",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "photosync",
            dependencies: [
                "PhotoSyncKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Tests
        .target(
            name: "PhotoSyncTestSupport",
            path: "Tests/PhotoSyncTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GraphStoreTests",
            dependencies: ["GraphStore", "PhotoSyncTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PhotoFeedTests",
            dependencies: ["PhotoFeed", "PhotoSyncTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PhotoSyncKitTests",
            dependencies: ["PhotoSyncKit", "PhotoSyncTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PhotoSyncEndToEndTests",
            dependencies: ["PhotoSyncTestSupport", "GraphStore"],
            swiftSettings: strictSettings
        ),
        // Fault injection through the built binary (issue #4). The slow part runs only with
        // PHOTOSYNC_SLOW_FAULTS=1 (`make test-faults`); the libFuzzer target lives in Fuzz/ (`make fuzz`).
        .testTarget(
            name: "PhotoSyncFaultTests",
            dependencies: [
                "PhotoSyncTestSupport", "GraphStore", "PhotoFeed",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
