import Foundation
import TestSupport
import Testing

/// navctl reads everyday command lines by hand (FastPath.swift) and all others with ArgumentParser;
/// the same lines must give the same status, output and errors either way.
@Suite("navctl's fast path matches ArgumentParser", .serialized, .enabled(if: EndToEnd.navdAvailable),
       .timeLimit(.minutes(2)))
struct NavctlFastPathTests {
    /// Command lines (after `--address BUS`, or with it inside) covering every fast-path form and its edges.
    static let lines: [[String]] = [
        ["push", "orange"], ["push", "news-item", "id=4", "--json"], ["--json", "push", "yellow"],
        ["push", "news-item"], ["push", "red", "=x"], ["push", "red", "novalue"], ["push"],
        ["replace", "green", "-q"], ["present", "modal", "--sheet"], ["present", "modal"],
        ["present", "modal", "--sheet", "--cover"], ["present", "login", "--cover", "--json"],
        ["dismiss"], ["dismiss", "--all"], ["dismiss", "extra"], ["pop", "--quiet"], ["pop-to", "red"],
        ["pop-to"], ["root", "--timeout", "5"], ["root", "--timeout", "0"], ["back"], ["tab", "news"],
        ["tab", "no-such-tab"], ["open", "/news/3", "--json"], ["undo"], ["redo"], ["redo"], ["state"],
        ["state", "--json"], ["tree"], ["status", "--json"], ["state", "--system"], ["pop", "--frobnicate"],
        ["state", "--json", "--json"], ["state", "-h"],
    ]

    @Test("every line gives the same status, stdout and stderr on both paths")
    func samePaths() throws {
        let fast = try NavdOnPrivateBus()
        let slow = try NavdOnPrivateBus()
        for line in Self.lines {
            let viaFast = try fast.navctl(line)
            let viaParser = try slow.navctl(line, environment: ["NAVCTL_NO_FAST_PATH": "1"])
            // The bus address and navd's unique name (`:1.N`) differ between the two buses.
            let normalize = { (text: String, bus: PrivateBus) in
                text.replacingOccurrences(of: bus.address, with: "BUS")
                    .replacingOccurrences(of: #":1\.[0-9]+"#, with: ":1.N", options: .regularExpression)
            }
            #expect(viaFast.status == viaParser.status, "\(line): \(viaFast) vs \(viaParser)")
            #expect(normalize(viaFast.stdout, fast.bus) == normalize(viaParser.stdout, slow.bus), "\(line)")
            #expect(normalize(viaFast.stderr, fast.bus) == normalize(viaParser.stderr, slow.bus), "\(line)")
        }
    }
}
