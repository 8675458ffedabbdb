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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.30.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.1.0"),
    ],
    targets: [
        // The C layer: Debian's liblmdb-dev through pkg-config. Nothing else touches C.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        // A small, safe Swift wrapper over LMDB. Knows nothing about payments.
        .target(name: "LMDBKit", dependencies: ["CLMDB"]),
        // The append-only event log: streams, positions, idempotency, hash chain, group commit.
        .target(
            name: "PaylogStore",
            dependencies: [
                "LMDBKit",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Schema/store.proto"]
        ),
        // Payments, money and the workflow state machine. No storage, no HTTP.
        .target(name: "PaylogDomain"),
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
        // The command-line tool.
        .executableTarget(
            name: "paylog",
            dependencies: [
                "PaylogStore", "PaylogDomain", "PaylogProviders", "PaylogCompatibility", "PaylogWorkflow",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A child process for the crash tests: appends in a loop and records every acknowledged position.
        .executableTarget(name: "paylog-torture", dependencies: ["PaylogStore"]),

        // Helpers shared by the test targets: temporary directories, built executables.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LMDBKitTests", dependencies: ["LMDBKit", "TestSupport"]),
        .testTarget(
            name: "PaylogDomainTests",
            dependencies: ["PaylogDomain", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "PaylogProvidersTests",
            dependencies: [
                "PaylogProviders", "PaylogDomain",
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
            ]
        ),
        .testTarget(name: "PaylogStoreTests", dependencies: ["PaylogStore", "LMDBKit", "TestSupport", "paylog-torture"]),
    ],
    swiftLanguageModes: [.v6]
)
