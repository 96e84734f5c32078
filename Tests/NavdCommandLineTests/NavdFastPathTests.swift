import ArgumentParser
import Testing
@testable import NavdCommandLine

/// navd reads the command lines a service manager starts it with by hand (`NavdArguments.fastParse`), and every
/// other line with ArgumentParser. These tests fail when the two read a line differently, or when the hand
/// reading takes a line ArgumentParser would refuse.
@Suite("navd's fast path reads as ArgumentParser does", .timeLimit(.minutes(1)))
struct NavdFastPathTests {
    /// Every option the fast path knows, with the values and spellings it must agree on, in combinations.
    static let lines: [[String]] = {
        let pieces: [[String]] = [
            [], ["--system"], ["--ephemeral"], ["--verbose"], ["--routes", "/etc/navd/routes.yaml"], ["--routes=r.yaml"],
            ["--state-dir", "/tmp/s"], ["--state-dir=/tmp/a=b"], ["--apps-dir", "apps"], ["--address", "unix:path=/tmp/b"],
            ["--address=unix:path=/tmp/b,guid=1"],
        ]
        var lines: [[String]] = []
        for first in pieces {
            for second in pieces { lines.append(first + second) }
        }
        return lines + [["--system", "--routes", "r", "--apps-dir", "a", "--verbose", "--state-dir", "s"]]
    }()

    /// What ArgumentParser reads from `line`, or nil when it refuses it.
    static func parsed(_ line: [String]) -> NavdArguments? {
        (try? NavdCommand.parseAsRoot(line)).flatMap { ($0 as? NavdCommand)?.values }
    }

    @Test func theFastPathReadsEveryLineItTakesAsArgumentParserDoes() throws {
        var taken = 0
        for line in Self.lines {
            guard let fast = NavdArguments.fastParse(line) else { continue }
            taken += 1
            let parsed = try #require(Self.parsed(line), "the fast path took \(line), ArgumentParser refuses it")
            #expect(fast == parsed, "\(line)")
        }
        #expect(taken > 60, "the fast path takes the plain lines (took \(taken) of \(Self.lines.count))")
        // The comparison sees the values read.
        #expect(NavdArguments.fastParse(["--routes", "a"]) != NavdArguments.fastParse(["--routes", "b"]))
        #expect(NavdArguments.fastParse([])?.system == false)
        #expect(NavdArguments.fastParse(["--system"])?.system == true)
    }

    @Test func linesOutsideItsPlainFormsAreLeftToArgumentParser() {
        for line in [
            ["--help"], ["--version"], ["--check-routes", "r.yaml"], ["--max-undo", "5"], ["--durability", "full"],
            ["--system", "--system"], ["--routes", "a", "--routes", "b"], ["--routes"], ["--routes", "--system"],
            ["--routes="], ["--system=yes"], ["routes.yaml"], ["-v"], ["--system", "--address", "unix:path=/x"],
            ["--ephemeral", "--state-dir", "s"], ["--print-introspection"],
        ] {
            #expect(NavdArguments.fastParse(line) == nil, "\(line)")
        }
        // The options that exclude each other are refused by ArgumentParser, with its message.
        #expect(Self.parsed(["--system", "--address", "unix:path=/x"]) == nil)
    }
}
