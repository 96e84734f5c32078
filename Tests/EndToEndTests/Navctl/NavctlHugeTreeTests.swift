import Foundation
import NavdClient
import TestSupport
import Testing

/// navctl and navwatch render any tree navd can hold: with its limits raised, navd holds a stack of 100,000
/// screens, and the tree drawing (which recursed once per screen) overflowed the stack.
@Suite("navctl and navwatch draw a stack of 100,000 screens", .serialized, .enabled(if: EndToEnd.navdAvailable),
       .timeLimit(.minutes(3)))
struct NavctlHugeTreeTests {
    static let screens = 100_000

    @Test func hundredThousandScreens() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let limit = String(Self.screens)
        let navd = try NavdProcess.started(bus: bus, extraArguments: [
            "--max-stack-depth", limit, "--max-path-depth", limit, "--max-params-bytes", "10000000",
        ])
        defer { navd.stop() }
        let client = try NavigatorClient(bus: .address(bus.address), timeoutMilliseconds: 120_000)
        let stack = [ScreenSpec(route: "red")] + Array(repeating: ScreenSpec(route: "orange"), count: Self.screens - 1)
        #expect(try client.send(.setStack(stack)) == 2)
        let tree = try bus.navctl("--timeout", "120", "tree")
        #expect(tree.status == 0, "\(tree.status) \(tree.stderr)")
        #expect(tree.lines.count == 1 + 3 + 2 + Self.screens, "revision, three tabs, the other tabs' roots, every screen")
        let top = tree.lines.filter { $0.hasSuffix("  <- top") }
        #expect(top.count == 1 && top.first?.hasPrefix("    orange  (#") == true, "the last screen is on top: \(top)")
        let state = try bus.navctl("--timeout", "120", "state")
        #expect(state.status == 0 && state.stdout.hasPrefix("2 state rainbow: red > orange > "), "\(state.stderr)")
        let watched = try ChildProcess.run(
            Products.url("navwatch"), ["--address", bus.address, "--timeout", "120", "--once", "--tree"],
            environment: bus.environment, timeout: 120)
        #expect(watched.status == 0, "\(watched.stderr)")
        #expect(watched.stdout.split(separator: "\n").count == 1 + 3 + 2 + Self.screens,
                "the line, three tabs, the other tabs' roots, every screen")
    }
}
