// The recording document of docs/devtools.md ("Recordings"): what `Export` writes and `navctl replay` and
// `navd --from-recording` read. Pure values, no I/O, no Foundation: the text is made and read here, files and
// the bus are the callers' business.
import JSON
import Navigation

/// A recording: a stretch of one navigator's life (the graph it ran under, the state it started from, and every
/// change after it with its request and visible result), as the JSON document `navd-recording` version 1.
public struct Recording: Hashable, Sendable {
    /// The format version this module writes and the only one it reads.
    public static let formatVersion: UInt64 = 1

    /// The exporting navd's version.
    public var navd: String
    /// `""` for the default navigator, else the app's name.
    public var app: String
    /// The graph the start state was answered under.
    public var routes: RecordingRoutes
    /// The state the first recorded change started from.
    public var start: RecordingStart
    /// The recorded changes, oldest first.
    public var changes: [RecordingChange]
    /// Whether param values were replaced by placeholders (`navctl export --redact`).
    public var redacted: Bool

    /// A recording with the given parts.
    public init(
        navd: String, app: String, routes: RecordingRoutes, start: RecordingStart, changes: [RecordingChange],
        redacted: Bool = false
    ) {
        self.navd = navd
        self.app = app
        self.routes = routes
        self.start = start
        self.changes = changes
        self.redacted = redacted
    }
}

/// A route graph as a recording names it: the embedded demo graph, or a route file's path and whole text.
public enum RecordingRoutes: Hashable, Sendable {
    /// `{"source": "demo"}`: navd's embedded demo graph.
    case demo
    /// `{"source": "file", "path": …, "text": …}`: the route file read from `path`, whose text was `text`.
    case file(path: String, text: String)
}

/// The state the first recorded change started from, in navd's own shape: `{"revision": N, "state": BASE64}`,
/// where `state` is base64 (RFC 4648, padded) of `NavigationState.encodedSnapshot()` of the navigator's state
/// right after revision N: tree with ids, id counter, facts, flows, undo and redo lists, and the history steps
/// kept before N with their states (what a recorded `Revert` goes back to). navd makes it with
/// `Coordinator.recordingStart(at:)` and starts from it with `NavigationState.decodeSnapshot`.
public struct RecordingStart: Hashable, Sendable {
    /// The revision the start state is at (the first recorded change's start).
    public var revision: UInt64
    /// The snapshot document's bytes (`NavigationState.encodedSnapshot()`).
    public var snapshot: [UInt8]
}

extension RecordingStart {
    /// The start at `state` (`Coordinator.recordingStart(at:)`): its revision and its snapshot.
    public init(_ state: NavigationState) {
        self.init(revision: state.revision, snapshot: state.encodedSnapshot())
    }
}

/// Who made a recorded change, as far as the bus told it.
public struct RecordingCaller: Hashable, Sendable {
    /// The caller's process name (`/proc/PID/comm`), when known.
    public var command: String?
    /// The caller's user id, when the bus told it.
    public var uid: UInt32?
}

extension RecordingCaller {
    /// The caller `record` names; nil when it names neither its command nor its uid.
    public init?(_ record: ChangeRecord) {
        if record.command == nil && record.uid == nil { return nil }
        self.init(command: record.command, uid: record.uid)
    }
}

/// One recorded change: its history line, its request, its caller, and the visible result.
public struct RecordingChange: Hashable, Sendable {
    /// The revision the change made.
    public var revision: UInt64
    /// The cause (`push`, `reconcile`, `revert`, …).
    public var cause: String
    /// When, in microseconds since the epoch.
    public var time: Int64
    /// The D-Bus method that made it (`Push`, `Apply`, …), `""` for a reconciliation.
    public var method: String
    /// The call's arguments (`RecordedCall.json`); nil when `method` is `""`.
    public var arguments: JSONValue?
    /// Who called; nil when not known or redacted.
    public var caller: RecordingCaller?
    /// The selected tab after the change (`""` when untabbed).
    public var tab: String
    /// The visible path after the change, bottom first, as `GetState` gives it.
    public var path: [Entry]
    /// The id counter before the change: the number the change's first new id carried.
    public var nextId: UInt64
    /// The graph the change was answered under, when it differs from the previous change's (or, for the
    /// first change, from the recording's `routes`); nil otherwise.
    public var routes: RecordingRoutes?

    /// A change with the given parts.
    public init(
        revision: UInt64, cause: String, time: Int64, method: String, arguments: JSONValue?, caller: RecordingCaller?,
        tab: String, path: [Entry], nextId: UInt64, routes: RecordingRoutes? = nil
    ) {
        self.revision = revision
        self.cause = cause
        self.time = time
        self.method = method
        self.arguments = arguments
        self.caller = caller
        self.tab = tab
        self.path = path
        self.nextId = nextId
        self.routes = routes
    }
}
