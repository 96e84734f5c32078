import ArgumentParser
import ClientCommandLine
import DBus

/// The flags every navctl command takes, before or after the subcommand's name: the connection's, and output's.
struct GlobalOptions: ParsableArguments {
    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .long, help: "Print one JSON document (shapes in navctl(1)).")
    var json = false

    @Flag(name: [.short, .long], help: "Print nothing on success.")
    var quiet = false

    /// The bus the flags pick.
    var bus: BusAddress { connection.bus }

    /// The global options with every field set from values the fast path read.
    init(_ values: Values) {
        // Set on a copy: inside an initializer, assigning a wrapped property re-creates the wrapper
        // (a definition without a value) instead of setting its value.
        var options = GlobalOptions()
        options.connection = ConnectionOptions(
            system: values.system, address: values.address, app: values.app, timeout: values.timeout)
        options.json = values.json
        options.quiet = values.quiet
        self = options
    }

    init() {}
}

extension GlobalOptions {
    /// The global options as plain values, with ArgumentParser's defaults.
    struct Values {
        var system = false
        var address: String?
        var app: String?
        var timeout = ConnectionOptions.defaultTimeout
        var json = false
        var quiet = false
    }

    /// One global option as the fast path reads it: its spellings, whether it takes a value, and what it sets
    /// (false: a value it cannot read, left to ArgumentParser to judge).
    struct Reading: Sendable {
        let names: [String]
        let takesValue: Bool
        let apply: @Sendable (inout Values, String) -> Bool

        /// A flag without a value.
        init(flag names: [String], _ set: @escaping @Sendable (inout Values) -> Void) {
            self.names = names
            takesValue = false
            apply = { values, _ in set(&values); return true }
        }

        /// An option with a value.
        init(option names: [String], _ apply: @escaping @Sendable (inout Values, String) -> Bool) {
            self.names = names
            takesValue = true
            self.apply = apply
        }
    }

    /// Every global option by every spelling ArgumentParser gives it (a test compares the two).
    static let readings: [Reading] = [
        Reading(flag: ["--system"]) { $0.system = true },
        Reading(option: ["--address"]) { values, text in values.address = text; return !text.isEmpty },
        Reading(option: ["--app"]) { values, text in values.app = text; return !text.isEmpty },
        Reading(option: ["--timeout"]) { values, text in
            guard let seconds = Double(text) else { return false }
            values.timeout = seconds
            return true
        },
        Reading(flag: ["--json"]) { $0.json = true },
        Reading(flag: ["-q", "--quiet"]) { $0.quiet = true },
    ]

    /// The spellings of the global flags that take no value, and of those that take one.
    static let flagNames = Set(readings.filter { !$0.takesValue }.flatMap(\.names))
    static let valueOptionNames = Set(readings.filter(\.takesValue).flatMap(\.names))
}
