import ArgumentParser
import DBus
import Logging
import Navigation
import NavdService
import RouteFiles

#if canImport(Glibc)
import Glibc
#endif

/// `navd`: the navigation coordinator service. Argument parsing and wiring only.
@main
struct NavdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navd",
        abstract: "The navigation coordinator: serves org.navd.Navigator1 on D-Bus.",
        discussion: """
            With no arguments navd serves the session bus, reads $XDG_CONFIG_HOME/navd/routes.yaml when \
            it exists (else the embedded demo graph) and keeps its state in $XDG_STATE_HOME/navd \
            (~/.local/state/navd). Logs go to stderr, one line per event.
            """,
        version: Navigator.version
    )

    @Option(name: .long, help: ArgumentHelp("Read the route graph from this YAML file.", valueName: "file"))
    var routes: String?

    @Option(name: .long, help: ArgumentHelp("Validate a route file, print a summary and exit (0 valid, 1 not).", valueName: "file"))
    var checkRoutes: String?

    @Flag(name: .long, help: "Print the embedded demo route graph as YAML (a starting point for a route file) and exit.")
    var printDefaultRoutes = false

    @Flag(name: .long, help: "Print the D-Bus introspection XML of org.navd.Navigator1 and exit.")
    var printIntrospection = false

    @Option(name: .long, help: ArgumentHelp("Keep the state database in this directory.", valueName: "dir"))
    var stateDir: String?

    @Flag(name: .long, help: "Keep nothing on disk: the tree starts fresh and dies with the process.")
    var ephemeral = false

    @Option(name: .long, help: ArgumentHelp("normal: survives navd being killed at any moment; full: also a power loss (fsync per group commit).", valueName: "level"))
    var durability: Durability = .normal

    @Flag(name: .long, help: "Serve the system bus instead of the session bus.")
    var system = false

    @Option(name: .long, help: ArgumentHelp("Serve the bus at this D-Bus address.", valueName: "address"))
    var address: String?

    @Option(name: .long, help: "Most screens on the path (LimitExceeded beyond).")
    var maxDepth: Int?
    @Option(name: .long, help: "Most screens in one stack.")
    var maxStackDepth: Int?
    @Option(name: .long, help: ArgumentHelp("Most bytes of params in one call, all screens together.", valueName: "bytes"))
    var maxParamsSize: Int?
    @Option(name: .long, help: "Most ops in one Apply.")
    var maxOps: Int?
    @Option(name: .long, help: ArgumentHelp("Longest route, tab, target or key string.", valueName: "bytes"))
    var maxStringLength: Int?
    @Option(name: .long, help: "Undo steps kept (at least 1).")
    var maxUndo: Int?

    @Flag(name: .long, help: "Log one line per call.")
    var verbose = false

    /// Runs the command; usage errors exit 2 (not swift-argument-parser's 64), failures 1.
    static func main() {
        do {
            var command = try parseAsRoot()
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
        for (name, value) in [("--max-depth", maxDepth), ("--max-stack-depth", maxStackDepth), ("--max-params-size", maxParamsSize),
                              ("--max-ops", maxOps), ("--max-string-length", maxStringLength), ("--max-undo", maxUndo)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1") }
        }
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
        if let checkRoutes {
            do {
                let graph = try RouteGraph.load(path: checkRoutes)
                print("\(checkRoutes): ok (\(graph.routes.count) routes, \(graph.tabs.count) tabs, \(graph.states.count) states)")
                return
            } catch {
                FileOutput.standardError("navd: \(error)\n")
                throw ExitCode(1)
            }
        }

        let logger = NavdLog.make(verbose: verbose)
        let options: ServiceOptions
        do {
            options = try makeOptions()
        } catch {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
        let daemon: NavigatorDaemon
        do {
            daemon = try NavigatorDaemon(options: options, logger: logger)
        } catch {
            logger.critical("\(error.message)")
            throw ExitCode(1)
        }
        SignalHandling.install(stopping: daemon)
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }

    private func makeOptions() throws -> ServiceOptions {
        var graph: RouteGraph
        if let routes {
            graph = try RouteGraph.load(path: routes)
        } else if let file = Paths.defaultRouteFile() {
            graph = try RouteGraph.load(path: file)
        } else {
            graph = RouteGraph.demo
        }
        if let maxDepth { graph.limits.maxPathDepth = maxDepth }
        if let maxStackDepth { graph.limits.maxStackDepth = maxStackDepth }
        if let maxParamsSize { graph.limits.maxParamsBytes = maxParamsSize }
        if let maxOps { graph.limits.maxApplyOps = maxOps }
        if let maxStringLength { graph.limits.maxStringBytes = maxStringLength }
        if let maxUndo { graph.limits.maxUndo = maxUndo }

        let bus: BusAddress = system ? .system : address.map { .address($0) } ?? .session
        let directory = ephemeral ? nil : (stateDir ?? Paths.defaultStateDirectory(system: system))
        return ServiceOptions(bus: bus, graph: graph, stateDirectory: directory, durability: durability, verbose: verbose)
    }
}

extension Durability: ExpressibleByArgument {}
