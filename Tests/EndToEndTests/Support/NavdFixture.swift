import DBus
import Foundation
import NavdClient
import TestSupport
import Testing

/// What the end-to-end tests need, and whether this machine has it.
enum EndToEnd {
    /// Why the tests that need a real navd cannot run here, or nil when they can.
    static let navdMissingReason: String? = {
        guard PrivateBus.isAvailable else { return "dbus-daemon is not installed" }
        for product in ["navd", "navctl", "navwatch"] where !Products.exists(product) {
            return "\(product) is not built in \(Products.directory)"
        }
        return nil
    }()

    /// Why the tests that need only a bus and the clients cannot run here, or nil when they can.
    static let clientsMissingReason: String? = {
        guard PrivateBus.isAvailable else { return "dbus-daemon is not installed" }
        for product in ["navctl", "navwatch"] where !Products.exists(product) {
            return "\(product) is not built in \(Products.directory)"
        }
        return nil
    }()

    /// True when navd can run; prints the reason once when it cannot.
    static var navdAvailable: Bool {
        if let navdMissingReason { print("skipping: \(navdMissingReason)") }
        return navdMissingReason == nil
    }

    /// True when the clients can run against a private bus; prints the reason when they cannot.
    static var clientsAvailable: Bool {
        if let clientsMissingReason { print("skipping: \(clientsMissingReason)") }
        return clientsMissingReason == nil
    }
}

/// A private bus with a fresh navd on it, for one test; both stopped by pid when the fixture
/// is released.
final class NavdOnPrivateBus: OnPrivateBus {
    let bus: PrivateBus
    let navd: NavdProcess
    /// The state directory the fixture made, removed with it (see `withFreshStateDirectory`).
    private var ownStateDirectory: String?
    /// The folder of `routeFile`, removed with the fixture.
    private let routesDirectory: String?

    /// Starts a bus, then navd on it (`--ephemeral` unless `stateDirectory` is given) with `extraArguments`,
    /// reading `routes` (a route file's text, written to `routeFile`) when given, and waits until navd answers.
    init(stateDirectory: String? = nil, routes: String? = nil, extraArguments: [String] = []) throws {
        var arguments = extraArguments
        if let routes {
            let folder = TemporaryDirectory.make("navd-routes")
            routesDirectory = folder
            try routes.write(toFile: folder + "/routes.yaml", atomically: true, encoding: .utf8)
            arguments = ["--routes", folder + "/routes.yaml"] + arguments
        } else {
            routesDirectory = nil
        }
        bus = try PrivateBus()
        navd = try NavdProcess.started(bus: bus, stateDirectory: stateDirectory, extraArguments: arguments)
    }

    /// The route file navd reads, when the fixture was given one: rewrite it and `Reload` to change the graph.
    var routeFile: String? { routesDirectory.map { $0 + "/routes.yaml" } }

    /// navd keeping its state in a fresh temporary directory, removed when the fixture is released.
    static func withFreshStateDirectory(extraArguments: [String] = []) throws -> NavdOnPrivateBus {
        let directory = NavdProcess.temporaryStateDirectory()
        do {
            let fixture = try NavdOnPrivateBus(stateDirectory: directory, extraArguments: extraArguments)
            fixture.ownStateDirectory = directory
            return fixture
        } catch {
            TemporaryDirectory.remove(directory)
            throw error
        }
    }

    deinit {
        navd.stop()
        bus.stop()
        if let ownStateDirectory { TemporaryDirectory.remove(ownStateDirectory) }
        if let routesDirectory { TemporaryDirectory.remove(routesDirectory) }
    }

    /// navd's state file (in the directory given to it).
    var stateFile: String { (navd.stateDirectory ?? "") + "/navd.sqlite3" }

    /// A client in the test process, for setting up and checking state without navctl.
    func client() throws -> NavigatorClient {
        try NavigatorClient(bus: .address(bus.address), timeoutMilliseconds: 5_000)
    }
}

/// A finished command: exit status and output.
struct CommandResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output's lines, without the final newline.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// Standard output parsed as one JSON document.
    func json() throws -> JSONValue { try JSONValue.parse(stdout) }

    var description: String { "status \(status), stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)" }
}

extension CommandResult {
    /// Checks the whole of a command's text output, as swift-argument-parser's `AssertExecuteCommand` does:
    /// the exit status, and stdout to the byte.
    func expectOutput(_ expected: String, status expectedStatus: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == expectedStatus && stdout == expected, "expected status \(expectedStatus), stdout \(expected.debugDescription); got \(self)",
                sourceLocation: sourceLocation)
    }

    /// Checks the whole of a command's JSON output, as swift-argument-parser's `AssertExecuteCommand` checks a
    /// command's whole output: the exit status, then stdout as the one document `expected` (`expectJSONDocument`).
    func expectJSON(_ expected: String, status expectedStatus: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == expectedStatus, "\(self)", sourceLocation: sourceLocation)
        expectJSONDocument(stdout, expected, sourceLocation: sourceLocation)
    }
}

/// Checks that `printed` is one JSON document equal to `expected`, compared as values: the same keys in the
/// same order and the same values, spacing aside.
func expectJSONDocument(_ printed: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let wanted: JSONValue
    do {
        wanted = try JSONValue.parse(expected)
    } catch {
        Issue.record("the expected document is not JSON (\(error)): \(expected)", sourceLocation: sourceLocation)
        return
    }
    do {
        let got = try JSONValue.parse(printed)
        #expect(got == wanted, "printed  \(got.encoded())\nexpected \(wanted.encoded())", sourceLocation: sourceLocation)
    } catch {
        Issue.record("not one JSON document (\(error)): \(printed.debugDescription)", sourceLocation: sourceLocation)
    }
}

/// Checks a stream of JSON documents, one a line (navwatch --json), line by line against `expected`.
func expectJSONLines(_ printed: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(printed.count == expected.count, "\(printed.count) lines, not \(expected.count): \(printed)", sourceLocation: sourceLocation)
    for (line, document) in zip(printed, expected) { expectJSONDocument(line, document, sourceLocation: sourceLocation) }
}

/// Whatever has a private bus (a fixture, or the bus itself): runs navctl against that bus.
protocol OnPrivateBus {
    var bus: PrivateBus { get }
}

extension PrivateBus: OnPrivateBus {
    var bus: PrivateBus { self }
}

extension OnPrivateBus {
    /// Runs `navctl --address BUS ARGS…` to completion, with extra environment variables when given.
    func navctl(_ arguments: String..., standardInput: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try navctl(arguments, standardInput: standardInput, environment: environment)
    }

    /// Runs `navctl --address BUS ARGS…` to completion, the arguments given as a list.
    func navctl(_ arguments: [String], standardInput: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try runNavctl(["--address", bus.address] + arguments, bus: bus, standardInput: standardInput, environment: environment)
    }

    /// Runs `navctl --address BUS ARGS…`, which must exit 0: otherwise it throws, with navctl's output.
    @discardableResult
    func navctlSucceeding(_ arguments: String...) throws -> CommandResult {
        let result = try navctl(arguments)
        if result.status != 0 { throw HarnessError("navctl \(arguments) failed: \(result)") }
        return result
    }
}

/// Runs the built navctl with `arguments`, its session and system bus pointed at `bus`.
func runNavctl(_ arguments: [String], bus: PrivateBus?, standardInput: String? = nil,
               environment: [String: String] = [:]) throws -> CommandResult {
    let result = try ChildProcess.run(
        Products.url("navctl"), arguments, environment: (bus?.environment ?? [:]).merging(environment) { $1 },
        standardInput: standardInput, timeout: 30)
    return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
}

extension JSONValue {
    /// The routes of a state's `path`, for short assertions.
    var pathRoutes: [String] {
        guard case .array(let entries)? = self["path"] else { return [] }
        return entries.compactMap { if case .string(let route)? = $0["route"] { return route } else { return nil } }
    }

    /// An integer member, for short assertions.
    func integer(_ key: String) -> Int64? {
        if case .int(let value)? = self[key] { return value }
        return nil
    }

    /// A string member, for short assertions.
    func string(_ key: String) -> String? {
        if case .string(let value)? = self[key] { return value }
        return nil
    }
}
