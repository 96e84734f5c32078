// swift-tools-version: 6.1
import PackageDescription

/// navd: a navigation coordinator on D-Bus.
///
/// Dependencies point one way: executables → NavdService / NavdClient → DBus and Navigation.
/// Only `DBus` (through `CDBus`) touches libdbus.
let package = Package(
    name: "navd",
    products: [
        .executable(name: "navd", targets: ["navd"]),
        .executable(name: "navctl", targets: ["navctl"]),
        .executable(name: "navwatch", targets: ["navwatch"]),
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "NavdClient", targets: ["NavdClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libdbus, found through pkg-config (Debian: libdbus-1-dev).
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // The only Swift code that calls libdbus.
        .target(name: "DBus", dependencies: ["CDBus"]),
        // The navigation model: pure values, no I/O (except the route-file loader).
        .target(name: "Navigation", dependencies: [.product(name: "Yams", package: "Yams")]),
        // The daemon's parts: interface declaration, dispatch onto the model, persistence.
        .target(
            name: "NavdService",
            dependencies: [
                "DBus", "Navigation",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A typed client of the contract.
        .target(name: "NavdClient", dependencies: ["DBus"]),
        .executableTarget(
            name: "navd",
            dependencies: [
                "NavdService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "navctl",
            dependencies: ["NavdClient", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "navwatch",
            dependencies: ["NavdClient", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The benchmark's floor: a stateless C service on libdbus answering Push/Pop (issue 7, 1b).
        .executableTarget(name: "navd-floor", dependencies: ["CDBus"]),
        // The benchmark's load client: a small C client on libdbus, so every service compared
        // is driven at the same small client cost.
        .executableTarget(name: "navd-load", dependencies: ["CDBus"]),
        // Issue 7's benchmark: navd against the bus's own floor (`make bench`).
        .executableTarget(name: "navd-bench", dependencies: ["DBus", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // Test fixtures shared by the test targets: a private dbus-daemon, child processes.
        .target(name: "TestSupport", dependencies: ["DBus"], path: "Tests/TestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(
            name: "NavigationTests",
            dependencies: ["Navigation", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "NavdServiceTests", dependencies: ["NavdService", "TestSupport"]),
        .testTarget(name: "NavdClientTests", dependencies: ["NavdClient", "DBus"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["NavdClient", "TestSupport", "navd", "navctl", "navwatch"]
        ),
    ]
)
