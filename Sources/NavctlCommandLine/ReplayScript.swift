#if canImport(Glibc)
import Glibc
#endif
import ChildProcesses
import ClientCommandLine
import DBus
import JSON
import NavdClient
import NavigatorProtocol
import Recording

/// One recorded change as a replay sends it: the request (a recorded reconcile is a `Reload`) with its
/// arguments in their recorded D-Bus types, and what the recording says it left.
struct ReplayStep {
    /// The revision, tab and path the recording says the change left.
    let recorded: VisibleState
    /// The method to call.
    let member: String
    /// Its arguments.
    let arguments: [DBusValue]
    /// The request for people: `Push {"route":"orange"}`, or `Reload (a recorded reconcile)`.
    let requestText: String
}

/// A recording read for a replay, every request converted before anything is started: a file that is not
/// a recording, or holds a request navd would not read, is refused (exit 2) naming the file and the problem.
struct ReplayScript {
    /// The file, as given.
    let file: String
    /// The revision the start state is at.
    let startRevision: UInt64
    /// Whether params are placeholders (compared by type).
    let redacted: Bool
    /// The changes, oldest first.
    let steps: [ReplayStep]

    init(file: String) throws(ReplayFailure) {
        self.file = file
        guard let bytes = FileText.bytes(atPath: file) else {
            throw .badInput("navctl: replay: \(file): cannot be read: \(String(cString: strerror(errno)))")
        }
        let recording: Recording
        do {
            recording = try Recording.decode(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .badInput("navctl: replay: \(file): \(error)")
        }
        startRevision = recording.start.revision
        redacted = recording.redacted
        var steps: [ReplayStep] = []
        for change in recording.changes {
            let recorded = VisibleState(revision: change.revision, tab: change.tab, path: change.path)
            guard !change.method.isEmpty else {
                steps.append(ReplayStep(
                    recorded: recorded, member: NavigatorMethod.reload.name, arguments: [],
                    requestText: "Reload (a recorded \(change.cause))"))
                continue
            }
            let what = "the change at revision \(change.revision) (\(change.method))"
            guard let method = NavigatorMethod(name: change.method), method.changesTree else {
                throw .badInput("navctl: replay: \(file): \(what): '\(change.method)' is not a method that changes the tree")
            }
            do {
                let arguments = try RecordedCall.arguments(method: change.method, json: change.arguments ?? .object([]))
                let text = change.arguments.map { " " + $0.encoded() } ?? ""
                steps.append(ReplayStep(recorded: recorded, member: method.name, arguments: arguments, requestText: change.method + text))
            } catch {
                throw .badInput("navctl: replay: \(file): \(what): \(error)")
            }
        }
        self.steps = steps
    }
}
