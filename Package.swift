// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

/// navd: a navigation coordinator on D-Bus.
///
/// Dependencies point one way: executables → NavdService / NavdClient → DBus and Navigation.
/// Only `DBus` (through `CDBus`) touches libdbus; only `SQLite` (through `CSQLite`) touches libsqlite3
/// (apart from the benchmark's C programs, navd-floor and navd-load, which are what navd is measured against).
let package = Package(
    name: "navd",
    products: [
        // One executable for navd, navctl and navwatch, chosen by the name it is called by: what is installed,
        // with navctl and navwatch as links to it (scripts/install.sh).
        .executable(name: "navd", targets: ["navd"]),
        // navctl and navwatch on their own, for the generate-manual plugin (`make man`), which writes one page
        // per executable product; never installed.
        .executable(name: "man-navctl", targets: ["man-navctl"]),
        .executable(name: "man-navwatch", targets: ["man-navwatch"]),
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "NavigatorProtocol", targets: ["NavigatorProtocol"]),
        .library(name: "RouteFiles", targets: ["RouteFiles"]),
        .library(name: "NavdClient", targets: ["NavdClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
        // Opens a C library on first use (dlopen): the one executable links neither libsqlite3 nor libyaml, which
        // navctl and navwatch never call (HACKING.md, "Dependencies, and why each is there").
        .target(name: "CLibraryLoader"),
        // libsqlite3's header (Debian: libsqlite3-dev), and a trampoline per function navd calls, which loads
        // libsqlite3.so.0 on the first call.
        .target(name: "CSQLite", dependencies: ["CLibraryLoader"]),
        // The only Swift code that calls libsqlite3: connections, prepared statements, transactions,
        // errors with SQLite's code and message. No Foundation.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // The navigation model: pure values, no I/O, no Foundation (clients link it and start fast).
        .target(name: "Navigation"),
        // JSON text read and written by hand (keys kept in order, strict, terminal-safe escapes). No Foundation.
        .target(name: "JSON"),
        // The recording document of docs/devtools.md (Export, replay): pure values and their JSON text, and
        // the one conversion of a recorded call's D-Bus arguments to JSON and back. No I/O, no Foundation.
        .target(name: "Recording", dependencies: ["JSON", "Navigation", "NavigatorProtocol", "DBus"]),
        // libyaml's header (Debian: libyaml-dev), and a trampoline per function navd calls, which loads
        // libyaml-0.so.2 on the first call.
        .target(name: "CYAML", dependencies: ["CLibraryLoader"]),
        // The route-file loader: YAML (libyaml's events, bounded) into a checked RouteGraph, and the
        // embedded demo graph. No Foundation: navd links no ICU.
        .target(name: "RouteFiles", dependencies: ["Navigation", "CYAML"]),
        // The contract of org.navd.Navigator1, declared once: names, interface, error names, and the
        // wire types' D-Bus conversions. The daemon and every client derive from it.
        .target(name: "NavigatorProtocol", dependencies: ["DBus", "Navigation"]),
        // glibc's malloc_trim, which Swift's Glibc module leaves out (a module map and a shim header).
        .systemLibrary(name: "CMalloc"),
        // The daemon's parts: dispatch onto the model, persistence.
        .target(
            name: "NavdService",
            dependencies: [
                "DBus", "Navigation", "RouteFiles", "NavigatorProtocol",
                "SQLite", "CMalloc", "ChildProcesses", "Recording", "JSON",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A typed client of the contract, and nothing else: what an app links.
        .target(name: "NavdClient", dependencies: ["DBus", "Navigation", "NavigatorProtocol"]),
        // navd's command line: its options, logging, signals (a library, so that the one executable and the tests link it).
        .target(
            name: "NavdCommandLine",
            dependencies: [
                "NavdService", "NavigatorProtocol", "RouteFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What navctl and navwatch share on the command line: the connection options, the exit statuses, the
        // text and JSON renderings, batch files, command-line params, and the escaping of text for terminals.
        .target(
            name: "ClientCommandLine",
            dependencies: [
                "NavdClient", "DBus", "JSON", "Recording", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // navctl's commands and its fast path; navwatch's views and loop.
        .target(
            name: "NavctlCommandLine",
            dependencies: [
                "NavdClient", "ClientCommandLine", "ChildProcesses", "JSON", "Recording", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "NavwatchCommandLine",
            dependencies: [
                "NavdClient", "ClientCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The one executable: navd, navctl or navwatch by the name it is called by (main.swift).
        .executableTarget(name: "navd", dependencies: ["NavdCommandLine", "NavctlCommandLine", "NavwatchCommandLine"]),
        .executableTarget(name: "man-navctl", dependencies: ["NavctlCommandLine"]),
        .executableTarget(name: "man-navwatch", dependencies: ["NavwatchCommandLine"]),
        // The Swift example of docs/swift-client.md, a view process on AsyncNavigator (a test runs it against navd).
        .executableTarget(name: "navd-view-example", dependencies: ["NavdClient"], path: "Examples/view-process"),
        // The benchmark's floors: a C service on libdbus answering Push/Pop, stateless (the bus floor)
        // or committing each change to SQLite before it replies (the durable floor, `--state`).
        .executableTarget(name: "navd-floor", dependencies: ["CDBus"], linkerSettings: [.linkedLibrary("sqlite3")]),
        // The benchmark's load client: a small C client on libdbus, so every service compared
        // is driven at the same small client cost.
        .executableTarget(name: "navd-load", dependencies: ["CDBus"]),
        // The benchmark: navd against the bus's own floor (`make bench`).
        .executableTarget(
            name: "navd-bench",
            dependencies: [
                "DBus", "Navigation", "NavigatorProtocol", "BusHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A private dbus-daemon, child processes and the navd launcher, shared by the tests
        // (through TestSupport) and the benchmark.
        .target(name: "BusHarness", dependencies: ["DBus", "NavigatorProtocol", "ChildProcesses"]),
        // Children started with a clean signal state, a private dbus-daemon, stopping by pid: what the
        // harness and `navctl replay` share. No Foundation (navctl links none).
        .target(name: "ChildProcesses"),

        // Test fixtures shared by the test targets: BusHarness, plus what only tests need.
        .target(name: "TestSupport", dependencies: ["DBus", "BusHarness", "NavigatorProtocol"], path: "Tests/TestSupport"),
        // Random route files and calls from integer codes, shared by the model's property tests and
        // the reliability suite.
        .target(name: "RandomRouteGraphs", dependencies: ["Navigation"], path: "Tests/RandomRouteGraphs"),
        // The route files the tests share, each once, as files under Tests/Fixtures/ that the shell tests
        // in Tests/Scripts/ read too; `Fixture` finds them (and the repository) from its own path.
        .target(name: "TestFixtures", path: "Tests/Fixtures", exclude: ["apps", "routes", "dbus"]),
        // The bodies of the fuzz targets, one per reader of input navd did not write (docs/reliability.md#fuzzing):
        // a library, so that `make test` replays the corpus through them (FuzzCorpusTests) without libFuzzer.
        .target(
            name: "FuzzTargets",
            dependencies: ["DBus", "JSON", "Navigation", "NavdClient", "NavdService", "NavigatorProtocol", "Recording", "RouteFiles", "ClientCommandLine"]
        ),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzTargets", "TestFixtures", "ChildProcesses"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "CSQLite"]),
        .testTarget(
            name: "NavigationTests",
            dependencies: [
                "Navigation", "RouteFiles", "RandomRouteGraphs", "TestFixtures",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "RouteFilesTests",
            dependencies: [
                "Navigation", "RouteFiles", "TestFixtures", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "NavdServiceTests",
            dependencies: [
                "NavdService", "NavigatorProtocol", "RouteFiles", "SQLite", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "NavigatorProtocolTests", dependencies: ["NavigatorProtocol", "Navigation", "DBus"]),
        .testTarget(name: "NavdClientTests", dependencies: ["NavdClient", "NavigatorProtocol", "DBus"]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "JSON", "Navigation", "NavigatorProtocol", "DBus"]),
        .testTarget(name: "ClientCommandLineTests", dependencies: ["ClientCommandLine", "NavdClient"]),
        .testTarget(
            name: "NavctlTests", dependencies: ["NavctlCommandLine", "ClientCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "NavdCommandLineTests", dependencies: ["NavdCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "NavwatchTests", dependencies: ["NavwatchCommandLine", "NavdClient", "ClientCommandLine"]),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["DBus", "Navigation", "NavigatorProtocol", "RandomRouteGraphs", "RouteFiles", "SQLite", "TestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "NavdClient", "ClientCommandLine", "NavigatorProtocol", "SQLite", "TestSupport", "TestFixtures", "navd",
                "navd-view-example",
            ]
        ),
    ]
)

// libFuzzer's executable, declared only for `make fuzz` (NAVD_FUZZ=1): it links only with -sanitize=fuzzer, which
// a plain `swift build` (which builds every product) does not pass.
if Context.environment["NAVD_FUZZ"] == "1" {
    package.targets.append(.executableTarget(name: "navd-fuzz", dependencies: ["FuzzTargets"], path: "Tests/Fuzz/navd-fuzz"))
}
