import Navigation
import RouteFiles

/// Route-file text to a graph, through the whole reader (`RouteGraph.load(bytes:file:)`: libyaml's events,
/// the bounded composer, every key, `access:`). An accepted graph must load the same again, and a fresh tree
/// of it must fit it (`Coordinator.misfits`: what a reload would repair) and survive a snapshot round trip.
public func fuzzRouteFile(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    let bytes = Array(data)
    guard let graph = try? RouteGraph.load(bytes: bytes, file: "fuzz.yaml") else { return }
    try require((try? RouteGraph.load(bytes: bytes, file: "fuzz.yaml")) == graph, "the same text loads as another graph")
    let coordinator = Coordinator(graph: graph)
    let misfits = coordinator.misfits
    try require(misfits.isEmpty, "a fresh tree does not fit its own graph: \(misfits.joined(separator: "; "))")
    try requireSnapshotRoundTrip(coordinator.state)
}

/// A state's snapshot decodes to the state, and encodes again to the same bytes.
func requireSnapshotRoundTrip(_ state: NavigationState) throws(PropertyViolation) {
    let encoded = state.encodedSnapshot()
    let decoded: NavigationState
    do { decoded = try NavigationState.decodeSnapshot(encoded) } catch {
        throw PropertyViolation("a state's own snapshot does not decode: \(error)")
    }
    try require(decoded == state, "a state's snapshot decodes to another state")
    try require(decoded.encodedSnapshot() == encoded, "a decoded state encodes to other bytes")
}
