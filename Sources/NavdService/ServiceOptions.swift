import DBus
import Navigation

/// Everything navd needs to start: which bus, which route graph, where (and whether) to keep state.
public struct ServiceOptions: Sendable {
    /// The bus to serve on.
    public var bus: BusAddress
    /// The route graph to validate against (its limits included). Without `graphSource` it is
    /// the embedded demo graph with `limitOverrides` over it, and the saved state records it so.
    public var graph: RouteGraph
    /// Where the state database lives; `nil` keeps nothing on disk (`--ephemeral`).
    public var stateDirectory: String?
    /// How hard a commit tries to survive: a killed process (`normal`) or a power loss (`full`).
    public var durability: Durability
    /// Whether per-call lines are logged.
    public var verbose: Bool
    /// Where the default navigator's route file is, asked at start-up and on every reload (nil:
    /// the embedded demo graph). Without it, `graph` is served and a reload keeps it.
    public var routeFile: (@Sendable () -> String?)?
    /// The route file `graph` was read from and the bytes it was read from (a reload that finds
    /// the same bytes parses nothing); nil when `graph` came from no file.
    public var graphSource: (file: String, bytes: [UInt8])?
    /// The folder of the apps' route files (`NAME.yaml`); nil serves no apps.
    public var appsDirectory: String?
    /// Limits given on the command line, applied over every route file's.
    public var limitOverrides: [(Limits.Key, Int)]
    /// The route file navd was told to read (`--routes`) that was gone at start (`graph` is then
    /// only a stand-in): navd serves the graph saved with its state if that state was made under
    /// this very file (logged as a warning), and refuses to start otherwise.
    public var missingRouteFile: String?
    /// For `--from-recording`: the recording to start from and serve comparably (needs no state directory).
    public var replay: ReplayPlan?

    /// Options with the defaults of the contract.
    public init(
        bus: BusAddress, graph: RouteGraph, stateDirectory: String?, durability: Durability = .normal, verbose: Bool = false,
        routeFile: (@Sendable () -> String?)? = nil, graphSource: (file: String, bytes: [UInt8])? = nil,
        appsDirectory: String? = nil, limitOverrides: [(Limits.Key, Int)] = [], missingRouteFile: String? = nil,
        replay: ReplayPlan? = nil
    ) {
        self.bus = bus
        self.graph = graph
        self.stateDirectory = stateDirectory
        self.durability = durability
        self.verbose = verbose
        self.routeFile = routeFile
        self.graphSource = graphSource
        self.appsDirectory = appsDirectory
        self.limitOverrides = limitOverrides
        self.missingRouteFile = missingRouteFile
        self.replay = replay
    }
}

/// Why navd could not start; the message says what to do. navd exits with status 1 on it.
public struct StartupError: Error, CustomStringConvertible, Sendable {
    /// A sentence for a person.
    public var message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
