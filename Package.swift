// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "paylog",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "paylog", targets: ["paylog"]),
        .library(name: "PaylogStore", targets: ["PaylogStore"]),
        .library(name: "PaylogDomain", targets: ["PaylogDomain"]),
        .library(name: "PaylogProviders", targets: ["PaylogProviders"]),
        .library(name: "PaylogCompatibility", targets: ["PaylogCompatibility"]),
        .library(name: "PaylogWorkflow", targets: ["PaylogWorkflow"]),
        .library(name: "PaylogService", targets: ["PaylogService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.30.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.0"),
    ],
    targets: [
        // The C layer: Debian's liblmdb-dev (through pkg-config) and libzstd-dev. Nothing else touches C.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev", "libzstd-dev"]), .brew(["lmdb", "zstd"])]
        ),
        // A small, safe Swift wrapper over LMDB. Knows nothing about payments.
        .target(name: "LMDBKit", dependencies: ["CLMDB"]),
        // A small, safe Swift wrapper over zstd's dictionary compression of small records. Knows nothing about payments.
        .target(name: "ZstdKit", dependencies: ["CLMDB"]),
        // The append-only event log: streams, positions, idempotency, hash chain, group commit.
        .target(
            name: "PaylogStore",
            dependencies: [
                "LMDBKit", "ZstdKit",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Schema/store.proto"]
        ),
        // Payments, money and the workflow state machine. No storage, no HTTP.
        .target(name: "PaylogDomain", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // Square, SumUp and iZettle wire formats: parse and build launch and callback URLs.
        .target(name: "PaylogProviders", dependencies: ["PaylogDomain"]),
        // Judges recorded requests and callbacks against each provider's contract, rule by rule.
        .target(name: "PaylogCompatibility", dependencies: ["PaylogDomain", "PaylogProviders"]),
        // Payment events as log payloads (protobuf), and the views kept from them.
        .target(
            name: "PaylogWorkflow",
            dependencies: [
                "PaylogDomain", "PaylogProviders", "PaylogCompatibility", "PaylogStore", "LMDBKit",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            exclude: ["Schema/events.proto"]
        ),
        // Benchmark scenarios for `paylog bench`: the store, the workflow and a raw-LMDB baseline, measured in one run.
        .target(
            name: "PaylogBench",
            dependencies: [
                "CLMDB", "LMDBKit", "PaylogStore", "PaylogWorkflow", "PaylogDomain", "PaylogProviders",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // The JSON objects the CLI prints with --json and the HTTP API returns: one shape for both.
        .target(name: "PaylogPresentation", dependencies: ["PaylogWorkflow", "PaylogDomain", "PaylogCompatibility"]),
        // The HTTP service: routes, API keys, idempotency, metrics. Domain rules stay in PaylogWorkflow.
        .target(
            name: "PaylogService",
            dependencies: [
                "PaylogWorkflow", "PaylogPresentation", "PaylogStore", "PaylogDomain", "PaylogProviders",
                "PaylogCompatibility", "LMDBKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The command-line tool.
        .executableTarget(
            name: "paylog",
            dependencies: [
                "PaylogStore", "PaylogDomain", "PaylogProviders", "PaylogCompatibility", "PaylogWorkflow", "PaylogService",
                "PaylogPresentation", "PaylogBench", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A child process for the crash tests: appends in a loop and records every acknowledged position.
        .executableTarget(name: "paylog-torture", dependencies: ["PaylogStore"]),

        // Helpers shared by the test targets: temporary directories, built executables.
        .target(name: "TestSupport", dependencies: ["LMDBKit"], path: "Tests/TestSupport"),
        .testTarget(name: "LMDBKitTests", dependencies: ["LMDBKit", "TestSupport"]),
        .testTarget(name: "ZstdKitTests", dependencies: ["ZstdKit"]),
        .testTarget(
            name: "PaylogDomainTests",
            dependencies: ["PaylogDomain", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "PaylogProvidersTests",
            dependencies: [
                "PaylogProviders", "PaylogDomain", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PaylogCompatibilityTests", dependencies: ["PaylogCompatibility", "PaylogDomain", "PaylogProviders"]
        ),
        .testTarget(name: "PaylogCLITests", dependencies: ["TestSupport", "LMDBKit", "paylog"]),
        .testTarget(
            name: "PaylogWorkflowTests", dependencies: [
                "PaylogWorkflow", "PaylogDomain", "PaylogProviders", "PaylogStore", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "PaylogServiceTests", dependencies: [
                "PaylogService", "PaylogWorkflow", "PaylogStore", "PaylogPresentation", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(name: "PaylogBenchTests", dependencies: ["PaylogBench", "PaylogStore", "LMDBKit", "TestSupport"]),
        .testTarget(
            name: "PaylogStoreTests",
            dependencies: [
                "PaylogStore", "LMDBKit", "TestSupport", "paylog-torture",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
