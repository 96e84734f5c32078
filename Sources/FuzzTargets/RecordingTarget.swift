import Navigation
import NavdService
import Recording

/// A recording document to a recording (`Recording.decode`), then to what `navd --from-recording` serves
/// (`ReplayPlan(recording:underRoutesFile:)`: the start state's snapshot, every recorded graph) and each
/// recorded call to the arguments `navctl replay` sends (`RecordedCall.arguments`). An accepted recording
/// encodes and decodes to the same recording; an accepted plan's start state fits the recording's own graph.
public func fuzzRecording(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    guard let recording = try? Recording.decode(String(decoding: data, as: UTF8.self)) else { return }
    let again: Recording
    do { again = try Recording.decode(recording.encoded()) } catch {
        throw PropertyViolation("a recording's own text does not decode: \(error)")
    }
    try require(again == recording, "a recording's text decodes to another recording")
    for change in recording.changes where !change.method.isEmpty {
        if let arguments = change.arguments { _ = try? RecordedCall.arguments(method: change.method, json: arguments) }
    }
    guard let plan = try? ReplayPlan(recording: recording, underRoutesFile: false) else { return }
    let misfits = Coordinator(graph: plan.startGraph.graph, restoring: plan.start).misfits
    try require(misfits.isEmpty, "an accepted start state does not fit its own graph: \(misfits.joined(separator: "; "))")
}
