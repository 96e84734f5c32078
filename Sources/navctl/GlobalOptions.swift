import ArgumentParser
import DBus

/// The flags every navctl command takes, before or after the subcommand's name.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .long, help: "Talk to navd on the system bus (default: the session bus).")
    var system = false

    @Option(name: .long, help: ArgumentHelp("Talk to navd on the bus at this D-Bus address.", valueName: "address"))
    var address: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for navd's answer.", valueName: "seconds"))
    var timeout: Double = 25

    @Flag(name: .long, help: "Print one JSON document (shapes in README).")
    var json = false

    @Flag(name: [.short, .long], help: "Print nothing on success.")
    var quiet = false

    func validate() throws {
        if system && address != nil { throw ValidationError("--system and --address exclude each other") }
        if !(timeout > 0 && timeout < 2_000_000) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The bus the flags pick.
    var bus: BusAddress {
        if let address { return .address(address) }
        return system ? .system : .session
    }

    /// The names of the flags that take no value, and of those that take one, for moving them after the subcommand.
    static let flagNames: Set<String> = ["--system", "--json", "-q", "--quiet"]
    static let valueOptionNames: Set<String> = ["--address", "--timeout"]
}
