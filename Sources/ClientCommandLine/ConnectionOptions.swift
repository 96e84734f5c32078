import ArgumentParser
import DBus
import NavdClient

/// The flags that pick navd's bus, the navigator on it, and how long to wait for it, shared by navctl
/// and navwatch (`--system`, `--address`, `--app`, `--timeout`).
public struct ConnectionOptions: ParsableArguments {
    /// Seconds to wait for navd's answer when `--timeout` is not given.
    public static let defaultTimeout: Double = 25

    /// Talk to navd on the system bus.
    @Flag(name: .long, help: "Talk to navd on the system bus (default: the session bus).")
    public var system = false

    /// Talk to navd on the bus at this address.
    @Option(name: .long, help: ArgumentHelp("Talk to navd on the bus at this D-Bus address.", valueName: "address"))
    public var address: String?

    /// The app whose navigator to act on (`/org/navd/Navigator1/apps/NAME`); nil: the default navigator.
    @Option(name: .long, help: ArgumentHelp(
        "Act on this app's navigator (its route file is NAME.yaml in navd's apps folder; default: the default navigator).",
        valueName: "name"), completion: appCompletion)
    public var app: String?

    /// Seconds to wait for navd's answer.
    @Option(name: .long, help: ArgumentHelp("Seconds to wait for navd's answer.", valueName: "seconds"))
    public var timeout: Double = ConnectionOptions.defaultTimeout

    /// Options not read from a command line yet; set every field before reading one.
    public init() {}

    /// Options with every field set, as read by hand.
    public init(system: Bool, address: String?, app: String? = nil, timeout: Double) {
        // Set on a copy: inside an initializer, assigning a wrapped property re-creates the wrapper
        // (a definition without a value) instead of setting its value.
        var options = ConnectionOptions()
        options.system = system
        options.address = address
        options.app = app
        options.timeout = timeout
        self = options
    }

    /// Refuses `--system` with `--address`, an invalid app name (saying why), and a timeout that is not a
    /// positive number of seconds.
    public func validate() throws {
        if system && address != nil { throw ValidationError("--system and --address exclude each other") }
        if let app, let problem = Navigator.appNameProblem(app) {
            throw ValidationError("--app: \(problem) (an app's route file is NAME.yaml in navd's apps folder)")
        }
        if !(timeout > 0 && timeout < 2_000_000) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The bus the flags pick.
    public var bus: BusAddress {
        if let address { return .address(address) }
        return system ? .system : .session
    }

    /// The timeout in milliseconds, as the client takes it (`validate()` bounds it).
    public var timeoutMilliseconds: Int32 { Int32(timeout * 1000) }

    /// A client of the navigator the flags pick (see `NavigatorClient.init`).
    public func client() throws(NavigatorError) -> NavigatorClient {
        try NavigatorClient(bus: bus, app: app, timeoutMilliseconds: timeoutMilliseconds)
    }
}

