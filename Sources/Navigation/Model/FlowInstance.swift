/// A started flow: its id, its first screen, its params, what handles its outputs and the request it may resume.
struct FlowInstance: Hashable, Sendable {
    /// Opaque and unique: issued from the screen id counter.
    var id: String
    /// The flow's name.
    var flow: String
    /// The id of its first screen (the instance encloses it and everything above it in its tab).
    var firstScreen: String
    /// The name of the tab that holds the first screen ("" when untabbed).
    var tab: String
    /// Checked params, read as `$flow.NAME`.
    var params: [String: ParamValue]
    /// The `on-output` handlers of the action that started it (empty for the Start method or a guard).
    var onOutput: [String: Handler]
    /// The request a guard kept, run again when the flow finishes with `resumeOn`.
    var pending: PendingIntent?
    /// The guard's `resume-on` output ("" when nothing is pending).
    var resumeOn: String = ""
}

/// A request as it was made (an event, or any other call): what runs, and what a guard keeps as a pending
/// intent and resolves again when it resumes.
enum PendingIntent: Hashable, Sendable {
    /// An event from a screen (the source id is bound at call time).
    case event(source: String, event: String, params: InputParams)
    /// Any other call.
    case operation(Operation)
}

/// A flow instance as GetFlows reports it.
public struct FlowInfo: Hashable, Sendable {
    /// The instance's id, the flow's name, and the id of its first screen.
    public var id, flow, firstScreen: String
    /// Its params.
    public var params: [String: ParamValue]

    /// A report of one instance.
    public init(id: String, flow: String, firstScreen: String, params: [String: ParamValue]) {
        self.id = id
        self.flow = flow
        self.firstScreen = firstScreen
        self.params = params
    }
}

/// A flow that a change ended: FlowFinished's fields.
public struct FlowEnd: Hashable, Sendable {
    /// The instance's id, the flow's name, and the output it finished with ("" when it was abandoned).
    public var id, flow, output: String
    /// The output's params (empty when abandoned).
    public var params: [String: ParamValue]

    /// A report of one ended instance.
    public init(id: String, flow: String, output: String, params: [String: ParamValue] = [:]) {
        self.id = id
        self.flow = flow
        self.output = output
        self.params = params
    }
}

/// What an event (or a dry run) did, as Send and Resolve answer it.
public enum Outcome: String, Hashable, Sendable {
    /// The handler changed the tree.
    case applied
    /// A guard started its flow and kept the request.
    case redirected
    /// A guard flow finished and the kept request ran.
    case resumed
    /// A flow finished.
    case finished
    /// A `none` handler, or the tree stayed as it was.
    case ignored
    /// Resolve of a link that would leave the tree as it is.
    case noop
}
