import ArgumentParser
import DBus
import NavigatorProtocol
import Logging
import Navigation
import NavdService
import RouteFiles

#if canImport(Glibc)
import Glibc
#endif

/// `navd`: the navigation coordinator service. Argument parsing and wiring only.
struct NavdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navd",
        abstract: "The navigation coordinator: serves \(Navigator.interfaceName) on D-Bus.",
        discussion: """
            With no arguments navd serves the session bus, reads $XDG_CONFIG_HOME/navd/routes.yaml when \
            it exists (else the embedded demo graph) and keeps its state in $XDG_STATE_HOME/navd \
            (~/.local/state/navd). Each $XDG_CONFIG_HOME/navd/apps/NAME.yaml is an app served at \
            /org/navd/Navigator1/apps/NAME. SIGHUP (or the Reload method) reads every route file again. \
            Logs go to stderr, one line per event.
            """,
        version: Navigator.version
    )

    @Option(name: .long, help: ArgumentHelp("Read the route graph from this YAML file.", valueName: "file"))
    var routes: String?

    @Option(name: .long, help: ArgumentHelp("Validate a route file, print a summary and exit (0 valid, 1 not).", valueName: "file"))
    var checkRoutes: String?

    @Flag(name: .long, help: "Print the embedded demo route graph as YAML (a starting point for a route file) and exit.")
    var printDefaultRoutes = false

    @Flag(name: .long, help: "Print the D-Bus introspection XML of \(Navigator.interfaceName) and exit.")
    var printIntrospection = false

    @Flag(name: .long, help: "Print a system-bus policy made from the route files' access: keys (to replace the shipped org.navd.Navigator1.conf) and exit.")
    var printBusPolicy = false

    @Option(name: .long, help: ArgumentHelp("Serve one app per NAME.yaml route file in this folder (default $XDG_CONFIG_HOME/navd/apps; /etc/navd/apps with --system).", valueName: "dir"))
    var appsDir: String?

    @Option(name: .long, help: ArgumentHelp("Keep the state database in this directory.", valueName: "dir"))
    var stateDir: String?

    @Flag(name: .long, help: "Keep nothing on disk: the tree starts fresh and dies with the process.")
    var ephemeral = false

    @Option(name: .long, help: ArgumentHelp("Start from a recording's start state and serve its changes comparably (navctl replay; needs --ephemeral).", valueName: "file"))
    var fromRecording: String?

    @Option(name: .long, help: ArgumentHelp("normal: survives navd being killed at any moment; full: also a power loss (fsync per group commit).", valueName: "level"))
    var durability: Durability = .normal

    @Flag(name: .long, help: "Serve the system bus instead of the session bus.")
    var system = false

    @Option(name: .long, help: ArgumentHelp("Serve the bus at this D-Bus address.", valueName: "address"))
    var address: String?

    @OptionGroup var limits: LimitOptions

    @Flag(name: .long, help: "Log one line per call.")
    var verbose = false

    /// Runs the command on `arguments` (without the command's own name); usage errors exit 2 (not
    /// swift-argument-parser's 64), failures 1.
    static func start(_ arguments: [String]) {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileOutput.standardError(fullMessage(for: error) + "\n")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }

    mutating func validate() throws {
        if system && address != nil { throw ValidationError("--system and --address exclude each other") }
        if ephemeral && stateDir != nil { throw ValidationError("--ephemeral and --state-dir exclude each other") }
        if fromRecording != nil && !ephemeral {
            throw ValidationError("--from-recording needs --ephemeral: a replay starts from the recording and keeps nothing, so it never touches a saved state")
        }
        _ = try limits.overrides()
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
        let overrides = try limits.overrides()
        var graph = RouteFileLoading.withOverrides(RouteGraph.demo, overrides)
        var source: (file: String, bytes: [UInt8])?
        var missing: String?
        if let file = locate() {
            switch RouteFileLoading.load(file, limitOverrides: overrides) {
            case .success(let loaded):
                graph = loaded.graph
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

        let bus: BusAddress = system ? .system : address.map { .address($0) } ?? .session
        let directory = ephemeral ? nil : (stateDir ?? Paths.defaultStateDirectory(system: system))
        return ServiceOptions(
            bus: bus, graph: graph, stateDirectory: directory, durability: durability, verbose: verbose,
            routeFile: locate, graphSource: source, appsDirectory: appsDir ?? Paths.defaultAppsDirectory(system: system),
            limitOverrides: overrides, missingRouteFile: missing)
    }
}

extension Durability: ExpressibleByArgument {}
