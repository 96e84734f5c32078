import DBus
import Foundation
import NavdClient
import NavigatorProtocol
import Testing
import TestSupport

/// GetLimits: the limits a navigator enforces, as busctl, navctl and the client read them, before and after
/// a reload changes the route file's `limits:`.
@Suite("navd answers its limits", .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(1)))
struct NavdLimitsTests {
    let fixture: NavdOnPrivateBus

    /// A route file with two limits of its own; navd's `--max-history` and `--max-stack-depth` over it.
    init() throws {
        fixture = try NavdOnPrivateBus(
            routes: Self.routes(pathDepth: 40, undo: 10), extraArguments: ["--max-history", "50", "--max-stack-depth", "30"])
    }

    static func routes(pathDepth: Int, undo: Int) -> String {
        "root: home\nlimits:\n  max-path-depth: \(pathDepth)\n  max-undo: \(undo)\nroutes:\n  home: {}\n"
    }

    @Test("the default under the route file's under navd's options, in the route file's key order, through busctl, navctl and the client")
    func everyClientReadsTheLimitsInForce() throws {
        let busctl = try ChildProcess.run("/usr/bin/busctl", [
            "--address=\(fixture.bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue, Navigator.interfaceName, "GetLimits",
        ], timeout: 30)
        #expect(busctl.status == 0, "\(busctl)")
        #expect(busctl.stdout == """
            a{su} 7 "max-path-depth" 40 "max-stack-depth" 30 "max-params-bytes" 65536 "max-apply-ops" 256 \
            "max-string-bytes" 4096 "max-undo" 10 "max-history" 50\n
            """)
        try fixture.navctl("limits").expectOutput("""
            max-path-depth    40
            max-stack-depth   30
            max-params-bytes  65536
            max-apply-ops     256
            max-string-bytes  4096
            max-undo          10
            max-history       50\n
            """)
        try fixture.navctl("limits", "--json").expectJSON("""
            {"max-path-depth": 40, "max-stack-depth": 30, "max-params-bytes": 65536, "max-apply-ops": 256,
             "max-string-bytes": 4096, "max-undo": 10, "max-history": 50}
            """)
        let limits = try fixture.client().send(.getLimits)
        #expect(limits.map(\.name) == Limits.Key.allCases.map(\.rawValue))
    }

    @Test("a reload that changes the route file's limits is answered at once; the command line still wins")
    func aReloadChangesThem() throws {
        try Self.routes(pathDepth: 3, undo: 0).write(toFile: try #require(fixture.routeFile), atomically: true, encoding: .utf8)
        let client = try fixture.client()
        _ = try client.send(.reload)
        let limits = Dictionary(uniqueKeysWithValues: try client.send(.getLimits).map { ($0.name, $0.value) })
        #expect(limits["max-path-depth"] == 3 && limits["max-undo"] == 0)
        #expect(limits["max-history"] == 50 && limits["max-stack-depth"] == 30)
    }
}
