// The bodies of navd's fuzz targets (docs/reliability.md#fuzzing): one function per reader of input navd did
// not write. `make fuzz` runs each under libFuzzer (Tests/Fuzz/navd-fuzz/FuzzMain.swift), and FuzzCorpusTests replays every
// checked-in input through the same function in `make test`, without the fuzzer.

/// A property a fuzz target checks on an accepted input, found broken: what broke, for the input that broke it.
public struct PropertyViolation: Error, CustomStringConvertible, Sendable {
    /// What broke.
    public var description: String

    /// A violation saying `description`.
    public init(_ description: String) { self.description = description }
}

/// Throws a `PropertyViolation` saying `what` unless `condition` holds.
func require(_ condition: Bool, _ what: @autoclosure () -> String) throws(PropertyViolation) {
    if !condition { throw PropertyViolation(what()) }
}

/// The fuzz targets, by the names of their folders under Tests/Fuzz/.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Route-file text to a checked graph: YAML, every key, `access:` (`fuzzRouteFile`).
    case routeFile = "route-file"
    /// A recording document to a recording, then to a replay plan (`fuzzRecording`).
    case recording
    /// Snapshot bytes to a state (`fuzzSnapshot`).
    case snapshot
    /// A journal record's bytes to a record (`fuzzJournal`).
    case journal
    /// A batch file's JSON to operations, through to the daemon's reading of them (`fuzzBatch`).
    case batch
    /// The JSON reader alone (`fuzzJSON`).
    case json
    /// A D-Bus call's body to a method's arguments, through the daemon's decoding (`fuzzDBusCall`).
    case dbusCall = "dbus-call"
    /// `access:` lists to `navd --print-bus-policy`'s text (`fuzzBusPolicy`).
    case busPolicy = "bus-policy"

    /// Runs the target's body on one input.
    public func run(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
        switch self {
        case .routeFile: try fuzzRouteFile(data)
        case .recording: try fuzzRecording(data)
        case .snapshot: try fuzzSnapshot(data)
        case .journal: try fuzzJournal(data)
        case .batch: try fuzzBatch(data)
        case .json: try fuzzJSON(data)
        case .dbusCall: try fuzzDBusCall(data)
        case .busPolicy: try fuzzBusPolicy(data)
        }
    }

    /// The property `run` finds broken for one input, or nil.
    public func violation(_ data: UnsafeRawBufferPointer) -> PropertyViolation? {
        do {
            try run(data)
            return nil
        } catch {
            return error
        }
    }
}
