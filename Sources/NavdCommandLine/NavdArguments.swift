import ArgumentParser
import DBus
import Logging
import Navigation
import NavdService
import NavigatorProtocol
import RouteFiles

#if canImport(Glibc)
import Glibc
#endif

/// What navd's command line asked for, as plain values: what `NavdCommand` read, or what `fastParse` read
/// without ArgumentParser.
struct NavdArguments: Equatable, CustomStringConvertible {
    var routes: String?
    var checkRoutes: String?
    var printDefaultRoutes = false
    var printIntrospection = false
    var printBusPolicy = false
    var appsDir: String?
    var stateDir: String?
    var ephemeral = false
    var fromRecording: String?
    var durability: Durability = .normal
    var system = false
    var address: String?
    var limitOverrides: [(Limits.Key, Int)] = []
    var verbose = false

    static func == (a: NavdArguments, b: NavdArguments) -> Bool { a.description == b.description }

    var description: String {
        let limits = limitOverrides.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: ",")
        return "routes=\(routes ?? "-") checkRoutes=\(checkRoutes ?? "-") printDefaultRoutes=\(printDefaultRoutes) printIntrospection=\(printIntrospection) printBusPolicy=\(printBusPolicy) appsDir=\(appsDir ?? "-") stateDir=\(stateDir ?? "-") ephemeral=\(ephemeral) fromRecording=\(fromRecording ?? "-") durability=\(durability) system=\(system) address=\(address ?? "-") limits=\(limits) verbose=\(verbose)"
    }

    /// Why the options cannot go together (a usage error), or nil.
    var problem: String? {
        if system && address != nil { return "--system and --address exclude each other" }
        if ephemeral && stateDir != nil { return "--ephemeral and --state-dir exclude each other" }
        if fromRecording != nil && !ephemeral {
            return "--from-recording needs --ephemeral: a replay starts from the recording and keeps nothing, so it never touches a saved state"
        }
        return nil
    }

    /// The command lines a service manager and the tests start navd with, read by hand: ArgumentParser's reading
    /// of navd's command is built by reflection, which was a quarter of navd's CPU from exec to its first answer.
    /// Only `--system`, `--ephemeral` and `--verbose`, and `--routes`, `--state-dir`, `--apps-dir` and `--address`
    /// with a value (`--name value` or `--name=value`), each at most once; anything else (help, version, another
    /// option, a repeat, a value that is empty or starts with `-`, options that exclude each other) returns nil,
    /// and ArgumentParser reads the line and owns every message. A test compares the two readings.
    static func fastParse(_ arguments: [String]) -> NavdArguments? {
        var values = NavdArguments()
        var seen: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            let equals = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
            let name = equals.map { String(word[..<$0]) } ?? word
            guard !seen.contains(name) else { return nil }
            seen.append(name)
            var value: String?
            if let equals {
                value = String(word[word.index(after: equals)...])
            } else if index < arguments.count, ["--routes", "--state-dir", "--apps-dir", "--address"].contains(name) {
                value = arguments[index]
                index += 1
            }
            if let value, value.isEmpty || value.hasPrefix("-") { return nil }
            switch (name, value) {
            case ("--system", nil): values.system = true
            case ("--ephemeral", nil): values.ephemeral = true
            case ("--verbose", nil): values.verbose = true
            case ("--routes", let value?): values.routes = value
            case ("--state-dir", let value?): values.stateDir = value
            case ("--apps-dir", let value?): values.appsDir = value
            case ("--address", let value?): values.address = value
            default: return nil
            }
        }
        return values.problem == nil ? values : nil
    }

    func run() throws {
        if printIntrospection {
            print(Navigator.introspectionDocument(), terminator: "")
            return
        }
        if printDefaultRoutes {
            print(RouteGraph.demoYAML, terminator: "")
            return
        }
        if printBusPolicy {
            do {
                let options = try makeOptions()
                let navigators = try BusPolicy.navigators(defaultGraph: options.graph, appsDirectory: options.appsDirectory)
                print(BusPolicy.text(navigators), terminator: "")
                return
            } catch {
                FileOutput.standardError("navd: \(error)\n")
                throw ExitCode(1)
            }
        }
        if let checkRoutes {
            do {
                let graph = try RouteFileLoading.load(checkRoutes, limitOverrides: []).get().graph
                print("\(checkRoutes): ok (\(graph.routes.count) routes, \(graph.tabs.count) tabs, \(graph.states.count) states, \(graph.flows.count) flows, \(graph.facts.count) facts, \(graph.guards.count) guards)")
                return
            } catch {
                FileOutput.standardError("navd: \(error)\n")
                throw ExitCode(1)
            }
        }

        // Before anything that takes time: from here on SIGTERM, SIGINT and SIGHUP mean what they
        // mean while navd serves.
        let control = SignalHandling.install()
        let logger = NavdLog.make(verbose: verbose)
        var options: ServiceOptions
        do {
            options = try makeOptions()
        } catch {
            logger.critical("\(error)")
            // A replay's route file is part of its input: one that does not load is a bad file (status 2).
            throw ExitCode(fromRecording == nil ? 1 : 2)
        }
        if let fromRecording {
            do {
                options.replay = try ReplayPlan.load(recordingAt: fromRecording, underRoutesFile: routes != nil)
            } catch {
                FileOutput.standardError("navd: \(error.message)\n")
                throw ExitCode(2)
            }
        }
        if control.isStopRequested {
            logger.notice("asked to stop during start-up; stopping before connecting")
            return
        }
        let daemon: NavigatorDaemon
        do {
            daemon = try NavigatorDaemon(options: options, logger: logger, control: control)
        } catch {
            logger.critical("\(error.message)")
            throw ExitCode(1)
        }
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }

    private func makeOptions() throws -> ServiceOptions {
        let locate: @Sendable () -> String?
        if fromRecording != nil && routes == nil {
            // A replay runs under the recorded graphs: no route file of the user's is read.
            locate = { nil }
        } else if let given = routes {
            // Absolute, so the state records one name for the file wherever navd is started from
            // (and no relative name can read as the demo graph's origin).
            let routes = Paths.absolute(given)
            locate = { routes }
        } else {
            let system = system
            locate = { Paths.defaultRouteFile(system: system) }
        }
        let overrides = limitOverrides
        // The embedded demo graph is read (from its YAML) only when no route file gives the graph.
        var loadedGraph: RouteGraph?
        var source: (file: String, bytes: [UInt8])?
        var missing: String?
        if let file = locate() {
            switch RouteFileLoading.load(file, limitOverrides: overrides) {
            case .success(let loaded):
                loadedGraph = loaded.graph
                source = (file, loaded.bytes)
            case .failure where RouteFileLoading.isGone(file):
                // A gone file is not a different graph: the daemon serves the one the saved
                // state was made under if that was this file, and refuses to start otherwise.
                // (The default routes.yaml, gone between the look and the read, is no file.)
                if routes != nil { missing = file }
            case .failure(let error):
                throw error
            }
        }

        let graph = loadedGraph ?? RouteFileLoading.withOverrides(RouteGraph.demo, overrides)
        let bus: BusAddress = system ? .system : address.map { .address($0) } ?? .session
        let directory = ephemeral ? nil : (stateDir ?? Paths.defaultStateDirectory(system: system))
        return ServiceOptions(
            bus: bus, graph: graph, stateDirectory: directory, durability: durability, verbose: verbose,
            routeFile: locate, graphSource: source, appsDirectory: appsDir ?? Paths.defaultAppsDirectory(system: system),
            limitOverrides: overrides, missingRouteFile: missing)
    }
}
