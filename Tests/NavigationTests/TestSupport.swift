import Testing
@testable import Navigation
import RouteFiles
import TestFixtures

/// A fixed clock value for tests: perform depends only on the time it is given.
let testTime: Int64 = 1_700_000_000_000_000

/// An Entry, written short for literal expected paths.
func entry(_ id: String, _ route: String, _ presentation: Presentation = .push, _ params: [String: ParamValue] = [:]) -> Entry {
    Entry(id: id, route: route, presentation: presentation, params: params)
}

/// A tab's nodes as GetTree lists them: the tab node `id` named `tab`, then the screens of `stack`, bottom first,
/// each the child of the one before it (the first, of the tab node).
func tabNodes(_ id: String, _ tab: String, _ stack: [Entry]) -> [Node] {
    var nodes = [Node(id: id, parentID: "", kind: .tab, name: tab)]
    for screen in stack {
        nodes.append(Node(
            id: screen.id, parentID: nodes[nodes.count - 1].id, kind: NodeKind(screen.presentation), name: screen.route,
            params: screen.params))
    }
    return nodes
}

/// The demo coordinator at its fresh state: rainbow(#1) red(#2), news(#3) news-list(#4), profile(#5) profile(#6).
func demo() -> Coordinator { Coordinator(graph: .demo) }

extension Coordinator {
    /// Performs `op` and returns the change; a failure fails the test.
    @discardableResult
    mutating func must(_ op: Operation, sourceLocation: SourceLocation = #_sourceLocation) -> Change? {
        do {
            return try perform(op, at: testTime + Int64(revision))
        } catch {
            Issue.record("\(op.cause) failed: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Performs `op`, expecting it to fail; checks the state is unchanged and returns the error.
    func refuse(_ op: Operation, sourceLocation: SourceLocation = #_sourceLocation) -> NavigationError? {
        var copy = self
        do {
            let change = try copy.perform(op, at: testTime)
            Issue.record("\(op.cause) succeeded (revision \(change.revision)) but should have failed", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(copy.state == state, "a failed \(op.cause) changed the state", sourceLocation: sourceLocation)
            return error
        }
    }

    /// The path as "route#id" strings, for short literal comparisons.
    var routesOnPath: [String] { path.map(\.route) }
}

/// `push(route)` with no params.
func push(_ route: String, _ params: InputParams = [:]) -> Operation { .push(route: route, params: params) }

/// `present(route, style)` with no params.
func present(_ route: String, _ style: String = "sheet", _ params: InputParams = [:]) -> Operation {
    .present(route: route, params: params, style: style)
}

/// The text of the model tests' route file `Tests/Fixtures/routes/NAME.yaml`.
func routeFile(_ name: String) -> String { Fixture.text("routes/\(name).yaml") }

/// The graph of the route file `Tests/Fixtures/routes/NAME.yaml`, loaded through the route-file loader as `NAME.yaml`.
func fixtureGraph(_ name: String) throws -> RouteGraph { try RouteGraph.load(yaml: routeFile(name), file: "\(name).yaml") }

/// A fresh coordinator on the graph of the route file `Tests/Fixtures/routes/NAME.yaml`.
func fixtureCoordinator(_ name: String) throws -> Coordinator { Coordinator(graph: try fixtureGraph(name)) }

/// A small untabbed graph in YAML: the "file" tests load (`Tests/Fixtures/routes/small.yaml`).
let smallGraphYAML = routeFile("small")

/// The small graph, loaded through the route-file loader.
func smallGraph() throws -> RouteGraph { try fixtureGraph("small") }

/// `Send(source, event, params)` with no revision check.
func send(_ event: String, from source: String = "", _ params: InputParams = [:]) -> Operation {
    .send(source: source, event: event, params: params, expectedRevision: 0)
}

extension Coordinator {
    /// The path as "route" strings.
    var routes: [String] { path.map(\.route) }
}
