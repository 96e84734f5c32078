import Testing
import Navigation
import RouteFiles
import TestFixtures

/// The small untabbed graph the model's tests use too (`Tests/Fixtures/routes/small.yaml`), as text.
let smallGraphYAML = Fixture.text("routes/small.yaml")

/// The small graph, loaded through the route-file loader.
func smallGraph() throws -> RouteGraph { try RouteGraph.load(yaml: smallGraphYAML, file: "small.yaml") }

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
