import Foundation
import Testing
import TestSupport

/// `navd --check-routes FILE`, the real binary: a good file prints its summary and exits 0; each
/// hostile file (`docs/reliability.md#bounded-route-files`) is refused at once with exit 1 and one line naming the file, the
/// line where there is one, and the reason. The timeout only catches a hang (the Yams-based reader
/// ran for minutes on an alias used as a mapping key): how fast a refusal is comes from the
/// measurements in docs/reliability.md, not from this test.
@Suite("navd --check-routes", .timeLimit(.minutes(2)))
struct NavdCheckRoutesTests {
    let directory = TemporaryDirectory.make("navd-check-routes")

    /// navd's exit status and stderr for `--check-routes` of `name` in the test's directory.
    func check(_ name: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(NavdProcess.executable, ["--check-routes", directory + "/" + name], timeout: 20)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    /// Nested sequences of `width` aliases, `levels` deep (the first of `width` scalars).
    static func laughs(levels: Int, width: Int) -> String {
        (0..<levels).map { level in
            let items = Array(repeating: level == 0 ? "x" : "*a\(level - 1)", count: width).joined(separator: ", ")
            return "a\(level): &a\(level) [\(items)]\n"
        }.joined()
    }

    @Test func aGoodFileIsSummarized() throws {
        try write("good.yaml", "root: home\nroutes:\n  home: {}\n  next: {}\n")
        let result = try check("good.yaml")
        #expect(result.status == 0)
        #expect(result.stdout == "\(directory)/good.yaml: ok (2 routes, 0 tabs, 0 states, 0 flows, 0 facts, 0 guards)\n")
        TemporaryDirectory.remove(directory)
    }

    @Test func hostileFilesAreRefusedWithFileLineAndReason() throws {
        let aliases = "YAML aliases expand to more than 10000 nodes"
        let files: [(name: String, text: String, expected: String)] = [
            ("laughs.yaml", Self.laughs(levels: 9, width: 10) + "root: home\nroutes: { home: {} }\n", "laughs.yaml:4: \(aliases)"),
            ("key.yaml", Self.laughs(levels: 8, width: 10) + "routes:\n  ? *a7\n  : boom\nroot: home\n", "key.yaml:4: \(aliases)"),
            ("deep.yaml", "root: home\nroutes:\n  home: { hints: { h: " + String(repeating: "[", count: 61) + String(repeating: "]", count: 61) + " } }\n",
             "deep.yaml:3: nested deeper than 64 levels (at column 83, aliases expanded)"),
            ("big.yaml", "root: home\nroutes: { home: {} }\n" + String(repeating: "# padding\n", count: 2 << 17),
             "big.yaml: is larger than 1024 KiB, the most navd reads of a route file"),
            ("twice.yaml", "root: home\nroutes:\n  home: {}\n  home: {}\n", "twice.yaml:3: not valid YAML: the key 'home' appears twice"),
        ]
        for file in files {
            try write(file.name, file.text)
            let result = try check(file.name)
            #expect(result.status == 1, "\(file.name)")
            #expect(result.stderr.hasPrefix("navd: \(directory)/\(file.expected)"), "\(file.name): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
        }
        TemporaryDirectory.remove(directory)
    }

    @Test func aFIFOAndAFolderAreRefusedWithoutBeingOpened() throws {
        #expect(mkfifo(directory + "/fifo.yaml", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: directory + "/x.yaml", withIntermediateDirectories: true)
        for (name, kind) in [("fifo.yaml", "a FIFO"), ("x.yaml", "a folder")] {
            let result = try check(name)
            #expect(result.status == 1)
            #expect(result.stderr == "navd: \(directory)/\(name): is \(kind), not a regular file; a route file must be a regular YAML file\n")
        }
        TemporaryDirectory.remove(directory)
    }
}
