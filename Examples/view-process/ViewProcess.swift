import Glibc
import NavdClient

/// A view process: draws the screen on top whenever navd's state changes; each line typed is a route to push.
@main struct ViewProcess {
    static func main() async throws {
        let navigator = try AsyncNavigator(bus: .session)
        let view = Task.detached {
            for try await state in navigator.states() {
                print("showing \(state.top?.route ?? "nothing") at revision \(state.revision)")
                fflush(nil)  // a line at a time, into a pipe too
            }
        }
        while let route = readLine() {
            do {
                _ = try await navigator.send(.push(route))
            } catch {
                print("refused \(route): \(error.shortName ?? error.description)")
                fflush(nil)
            }
        }
        view.cancel()
        navigator.close()
    }
}
