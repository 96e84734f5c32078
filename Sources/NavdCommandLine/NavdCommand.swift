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
    /// swift-argument-parser's 64), failures 1. The plain command lines a service manager starts navd with
    /// skip ArgumentParser (`NavdArguments.fastParse`).
    static func start(_ arguments: [String]) {
        do {
            if let fast = NavdArguments.fastParse(arguments) {
                try fast.run()
                return
            }
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

    /// The values read, as plain values.
    var values: NavdArguments {
        NavdArguments(
            routes: routes, checkRoutes: checkRoutes, printDefaultRoutes: printDefaultRoutes,
            printIntrospection: printIntrospection, printBusPolicy: printBusPolicy, appsDir: appsDir, stateDir: stateDir,
            ephemeral: ephemeral, fromRecording: fromRecording, durability: durability, system: system, address: address,
            limitOverrides: (try? limits.overrides()) ?? [], verbose: verbose)
    }

    mutating func validate() throws {
        if let problem = values.problem { throw ValidationError(problem) }
        _ = try limits.overrides()
    }

    func run() throws {
        try values.run()
    }
}

extension Durability: ExpressibleByArgument {}
