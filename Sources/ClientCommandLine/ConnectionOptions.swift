import ArgumentParser
import DBus

/// The flags that pick navd's bus and how long to wait for it, shared by navctl and navwatch
/// (`--system`, `--address`, `--timeout`).
public struct ConnectionOptions: ParsableArguments {
    /// Seconds to wait for navd's answer when `--timeout` is not given.
    public static let defaultTimeout: Double = 25

    /// Talk to navd on the system bus.
    @Flag(name: .long, help: "Talk to navd on the system bus (default: the session bus).")
    public var system = false

    /// Talk to navd on the bus at this address.
    @Option(name: .long, help: ArgumentHelp("Talk to navd on the bus at this D-Bus address.", valueName: "address"))
    public var address: String?

    /// Seconds to wait for navd's answer.
    @Option(name: .long, help: ArgumentHelp("Seconds to wait for navd's answer.", valueName: "seconds"))
    public var timeout: Double = ConnectionOptions.defaultTimeout

    /// Options not read from a command line yet; set every field before reading one.
    public init() {}

    /// Options with every field set, as read by hand.
    public init(system: Bool, address: String?, timeout: Double) {
        // Set on a copy: inside an initializer, assigning a wrapped property re-creates the wrapper
        // (a definition without a value) instead of setting its value.
        var options = ConnectionOptions()
        options.system = system
        options.address = address
        options.timeout = timeout
        self = options
    }

    /// Refuses `--system` with `--address`, and a timeout that is not a positive number of seconds.
    public func validate() throws {
        if system && address != nil { throw ValidationError("--system and --address exclude each other") }
        if !(timeout > 0 && timeout < 2_000_000) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The bus the flags pick.
    public var bus: BusAddress {
        if let address { return .address(address) }
        return system ? .system : .session
    }

    /// The timeout in milliseconds, as the client takes it (`validate()` bounds it).
    public var timeoutMilliseconds: Int32 { Int32(timeout * 1000) }

}
