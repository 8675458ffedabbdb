// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "paylog",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "paylog", targets: ["paylog"]),
        .library(name: "PaylogStore", targets: ["PaylogStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.30.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
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
        // INTEGRATION-PENDING-DOMAIN
        // The command-line tool.
        .executableTarget(
            name: "paylog",
            dependencies: [
                "PaylogStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A child process for the crash tests: appends in a loop and records every acknowledged position.
        .executableTarget(name: "paylog-torture", dependencies: ["PaylogStore"]),

        .testTarget(name: "LMDBKitTests", dependencies: ["LMDBKit"]),
        .testTarget(name: "PaylogStoreTests", dependencies: ["PaylogStore", "LMDBKit", "paylog-torture"]),
    ],
    swiftLanguageModes: [.v6]
)
