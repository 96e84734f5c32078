import NavdClient
import Testing
@testable import NavwatchCommandLine

/// `--json`'s gone and back events: unchanged for the default navigator, naming the app with `--app`.
@Suite("navwatch's gone and back events", .timeLimit(.minutes(1)))
struct AppEventTests {
    @Test("the default navigator's gone event stays {\"event\":\"gone\"}; an app's names the app")
    func events() {
        #expect(LineRenderer.event("gone", app: nil).encoded() == #"{"event":"gone"}"#)
        #expect(LineRenderer.event("gone", app: "shop").encoded() == #"{"event":"gone","app":"shop"}"#)
        #expect(LineRenderer.event("back", app: "shop").encoded() == #"{"event":"back","app":"shop"}"#)
    }
}
