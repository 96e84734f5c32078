import BusHarness
import DBus
import Foundation

/// One private bus with the services on it: navd (with the given arguments) and the C floor
/// under `org.navd.Floor1` (and, where asked, the durable floor under `org.navd.DurableFloor1`),
/// so all are measured through the same bus daemon by the same client.
/// navd always takes its well-known bus name and refuses to queue for it, so each navd
/// configuration (persistent, ephemeral, growth) has a site, a bus and a floor of its own.
final class BenchSite {
    /// A short name for logs ("main", "ephemeral", "growth").
    let name: String
    let bus: PrivateBus
    let navd: NavdProcess
    let floor: ChildProcess
    /// navd-floor with `--state`: one SQLite WAL commit per change before it replies (nil unless asked for).
    private(set) var durableFloor: ChildProcess?
    /// The client connection the serial and pipelined measurements use.
    let client: Connection

    /// Starts the bus, the floor, the durable floor when `durableFloorState` names its database file, and
    /// navd (its state in `stateDirectory`, or `--ephemeral` when nil, plus `navdArguments`), and waits
    /// until all answer.
    init(
        name: String, binaries: Binaries, stateDirectory: String?, navdArguments: [String] = [],
        durableFloorState: String? = nil
    ) throws {
        self.name = name
        bus = try PrivateBus()
        navd = NavdProcess(
            bus: bus, executable: binaries.navd, stateDirectory: stateDirectory, extraArguments: navdArguments)
        do {
            floor = try ChildProcess(
                launching: binaries.floor, arguments: ["--address", bus.address, "--name", CallTarget.floor.busName])
            client = try Connection(.address(bus.address))
        } catch {
            bus.stop()
            throw error
        }
        guard waitUntilAnswering(client, .floor, kind: .ping, seconds: 20) else {
            stop()
            throw BenchError("navd-floor on the \(name) bus did not answer within 20 s:\n\(floor.logTail())")
        }
        if let durableFloorState {
            do {
                durableFloor = try ChildProcess(launching: binaries.floor, arguments: [
                    "--address", bus.address, "--name", CallTarget.durableFloor.busName, "--state", durableFloorState,
                ])
            } catch {
                stop()
                throw error
            }
            guard waitUntilAnswering(client, .durableFloor, kind: .ping, seconds: 20) else {
                stop()
                throw BenchError("navd-floor --state on the \(name) bus did not answer within 20 s:\n\(durableFloor?.logTail() ?? "")")
            }
        }
        do {
            try navd.start(timeout: 30)
        } catch {
            stop()
            throw BenchError("navd (\(navd.arguments.joined(separator: " "))): \(error)")
        }
    }

    /// A further client connection on this site's bus.
    func connect() throws -> Connection { try Connection(.address(bus.address)) }

    /// Stops navd, the floor and the bus, by pid.
    func stop() {
        client.close()
        navd.stop()
        floor.stop()
        durableFloor?.stop()
        bus.stop()
    }
}

/// Where the shipped binaries are: next to navd-bench unless `--bin-dir` says otherwise.
struct Binaries {
    let directory: String
    /// Another navd to run instead of the one in `directory` (`--baseline-navd`).
    var navdInstead: String? = nil
    var navd: String { navdInstead ?? directory + "/navd" }
    var navctl: String { directory + "/navctl" }
    var floor: String { directory + "/navd-floor" }

    /// The directory of the running executable (from /proc/self/exe).
    static func besideSelf() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().path
    }

    /// Throws naming every binary in `needed` that is missing.
    func check(_ needed: [String]) throws {
        // navctl and navwatch are links to navd, as installed; a bare `swift build` makes none.
        if FileManager.default.isExecutableFile(atPath: directory + "/navd") { Products.linkCommands(in: directory) }
        let missing = needed.filter { !FileManager.default.isExecutableFile(atPath: directory + "/" + $0) }
        if !missing.isEmpty {
            throw BenchError("missing in \(directory): \(missing.joined(separator: ", ")) (build them: swift build -c release)")
        }
    }
}
