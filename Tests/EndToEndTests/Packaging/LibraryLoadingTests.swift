import Foundation
import Testing
import TestFixtures
import TestSupport

/// navd, navctl and navwatch are one executable; navctl and navwatch never call libsqlite3 or libyaml, so the
/// executable does not link them and navd loads each on its first call (Sources/CLibraryLoader): a client
/// started cold maps neither. What the dynamic loader loads is read from its own log (`LD_DEBUG=files`), not timed.
@Suite("libraries loaded on first use", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct LibraryLoadingTests {
    /// The libraries only navd calls, as the dynamic loader names them.
    static let navdOnly = ["libsqlite3.so.0", "libyaml-0.so.2"]

    /// The environment that makes the dynamic loader log every library it loads into `folder` (a file per process).
    static func loaderLog(into folder: String) -> [String: String] {
        ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": folder + "/ld"]
    }

    /// The libraries the dynamic loader logged loading into `folder`, at start or through dlopen.
    static func loadedLibraries(in folder: String) throws -> Set<String> {
        var names = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let log = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in log.split(separator: "\n") {
                // "   1234:\tfile=libsqlite3.so.0 [0];  needed by /usr/bin/navd [0]"
                guard let start = line.range(of: "file=") else { continue }
                names.insert(String(line[start.upperBound...].prefix { $0 != " " && $0 != ";" }))
            }
        }
        return names
    }

    @Test func navctlAndNavwatchLoadNeitherSQLiteNorYAML() throws {
        let fixture = try NavdOnPrivateBus()
        let folder = TemporaryDirectory.make("navd-loader-log")
        defer { TemporaryDirectory.remove(folder) }
        let pushed = try fixture.navctl(["push", "orange"], environment: Self.loaderLog(into: folder))
        #expect(pushed.status == 0, "\(pushed)")
        let watched = try ChildProcess.run(
            Products.url("navwatch"), ["--address", fixture.bus.address, "--once"],
            environment: fixture.bus.environment.merging(Self.loaderLog(into: folder)) { $1 }, timeout: 30)
        #expect(watched.status == 0, "\(watched.stderr)")
        let loaded = try Self.loadedLibraries(in: folder)
        #expect(loaded.contains { $0.hasPrefix("libdbus-1.so") }, "the loader's log names libdbus: \(loaded.sorted())")
        for library in Self.navdOnly {
            #expect(!loaded.contains(library), "navctl or navwatch loaded \(library): \(loaded.sorted())")
        }
    }

    /// The same log shows navd loading both: from its state folder (SQLite) and its route file (YAML).
    @Test func navdLoadsBothOnFirstUse() throws {
        let folder = TemporaryDirectory.make("navd-loader-log")
        let state = NavdProcess.temporaryStateDirectory()
        defer {
            TemporaryDirectory.remove(folder)
            TemporaryDirectory.remove(state)
        }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let log = Self.loaderLog(into: folder).map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let navd = NavdProcess(
            bus: bus, stateDirectory: state, extraArguments: ["--routes", Fixture.directory + "/routes/small.yaml"],
            launcher: { ["/bin/sh", "-c", "exec env \(log) \($0)"] })
        try navd.start()
        defer { navd.stop() }
        let loaded = try Self.loadedLibraries(in: folder)
        for library in Self.navdOnly {
            #expect(loaded.contains(library), "navd did not load \(library): \(loaded.sorted())")
        }
    }
}
