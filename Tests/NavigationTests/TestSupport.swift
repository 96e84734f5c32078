import Testing
@testable import Navigation
import RouteFiles

/// A fixed clock value for tests: perform depends only on the time it is given.
let testTime: Int64 = 1_700_000_000_000_000

/// An Entry, written short for literal expected paths.
func entry(_ id: String, _ route: String, _ presentation: Presentation = .push, _ params: [String: ParamValue] = [:]) -> Entry {
    Entry(id: id, route: route, presentation: presentation, params: params)
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

/// The error loading `yaml` (as the file `file`) fails with; a file that loads fails the test.
func loadError(_ yaml: String, file: String = "routes.yaml", sourceLocation: SourceLocation = #_sourceLocation) -> RouteFileError? {
    do {
        _ = try RouteGraph.load(yaml: yaml, file: file)
        Issue.record("the route file loaded but should not have", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// `push(route)` with no params.
func push(_ route: String, _ params: InputParams = [:]) -> Operation { .push(route: route, params: params) }

/// `present(route, style)` with no params.
func present(_ route: String, _ style: String = "sheet", _ params: InputParams = [:]) -> Operation {
    .present(route: route, params: params, style: style)
}

/// A small untabbed graph in YAML: the "file" tests load.
let smallGraphYAML = """
    root: home
    routes:
      home: { title: Home }
      list:
        title: List
        params:
          filter: string
          page: { type: int, required: false }
      detail:
        title: Detail
        params:
          id: { type: int, required: true }
          zoom: double
          pinned: bool
        link: /items/{id}
      editor:
        title: Editor
        presentations: [sheet]
        params:
          id: { type: int, required: true }
      alert:
        title: Alert
        presentations: [cover, sheet]
    states:
      start: /
      first-item: /items/1
    limits:
      max-stack-depth: 5
      max-path-depth: 6
      max-apply-ops: 4
      max-string-bytes: 100
      max-params-bytes: 200
      max-undo: 3
      max-history: 5
    """

/// The small graph, loaded through the route-file loader.
func smallGraph() throws -> RouteGraph { try RouteGraph.load(yaml: smallGraphYAML, file: "small.yaml") }

/// `Send(source, event, params)` with no revision check.
func send(_ event: String, from source: String = "", _ params: InputParams = [:]) -> Operation {
    .send(source: source, event: event, params: params, expectedRevision: 0)
}

extension Coordinator {
    /// The path as "route" strings.
    var routes: [String] { path.map(\.route) }
}
