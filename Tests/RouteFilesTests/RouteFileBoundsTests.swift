import Foundation
import Testing
import Navigation
import RouteFiles

/// Route files read in bounded time and memory whatever they hold (`docs/reliability.md#bounded-route-files`): aliases that
/// would expand past 10,000 nodes, nesting past 64 levels, more than 1 MiB, anything but a regular
/// file — each refused naming the file and, where there is one, the line. Duplicate keys, located.
@Suite(.timeLimit(.minutes(1)))
struct RouteFileBoundsTests {
    func refusal(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) -> RouteFileError? {
        loadError(yaml, file: "bomb.yaml", sourceLocation: sourceLocation)
    }

    /// `levels` anchored sequences, each holding `width` aliases of the one before (the first,
    /// `width` scalars): the last expands to about width^levels nodes.
    static func laughs(levels: Int, width: Int) -> String {
        var lines = ["a0: &a0 [\(Array(repeating: "x", count: width).joined(separator: ", "))]"]
        for level in 1..<levels {
            lines.append("a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: width).joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theBillionLaughsAreRefusedAtTheAliasThatPassesTheBound() {
        // a0 is 11 nodes, a1 adds 10 × 11, a2 10 × 111; in a3 the eighth alias of a2 passes 10,000.
        let error = refusal(Self.laughs(levels: 9, width: 10) + "root: home\nroutes: { home: {} }\n")
        #expect(error?.file == "bomb.yaml")
        #expect(error?.line == 4)
        #expect(error?.problem == "YAML aliases expand to more than 10000 nodes (the alias at column 45 passes the bound); navd expands at most 10000, so write the shared part out or share it less")
    }

    @Test func anAliasUsedAsAMappingKeyIsRefusedLikeAnyOther() {
        // The shape that made the Yams-based reader hash a billion shared nodes: the levels
        // nested eight deep, the last one used as a key.
        let issue = refusal(Self.laughs(levels: 8, width: 10) + "routes:\n  ? *a7\n  : boom\nroot: home\n")
        #expect(issue?.problem.hasPrefix("YAML aliases expand to more than 10000 nodes") == true)
        // Narrow levels cost little to declare (2,024 nodes through aliases); each use of the last
        // one as a key adds its 1,023 nodes, and the eighth use passes the bound.
        var keys = ""
        for index in 0..<8 { keys += "k\(index):\n  ? *a8\n  : v\n" }
        let narrow = refusal(Self.laughs(levels: 9, width: 2) + keys)
        #expect(narrow?.line == 9 + 7 * 3 + 2)
        #expect(narrow?.problem.hasPrefix("YAML aliases expand to more than 10000 nodes (the alias at column 5") == true)
    }

    @Test func aliasesMayAddExactly10000Nodes() {
        // A 100-node sequence used 100 times adds exactly 10,000 nodes; one more alias is too many.
        let hundred = "a: &a [\(Array(repeating: "x", count: 99).joined(separator: ", "))]\nb: [\(Array(repeating: "*a", count: 100).joined(separator: ", "))]\n"
        #expect(refusal(hundred + "s: &s x\n")?.problem.hasPrefix("unknown key 'a'") == true, "composed; the reader then finds no route file")
        let error = refusal(hundred + "s: &s x\nt: *s\n")
        #expect(error?.line == 4)
        #expect(error?.problem.hasPrefix("YAML aliases expand to more than 10000 nodes (the alias at column 4") == true)
    }

    @Test func nesting64DeepIsReadAnd65IsRefused() {
        let flow64 = String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "\n"
        #expect(refusal(flow64)?.problem == "expected a mapping (key: value lines)", "64 levels compose; the reader then wants a mapping")
        let flow65 = refusal(String(repeating: "[", count: 65) + String(repeating: "]", count: 65) + "\n")
        #expect(flow65?.description == "bomb.yaml:1: nested deeper than 64 levels (at column 65, aliases expanded); navd reads route files nested at most 64 deep")
        // Block mappings, one level a line: the 65th starts on line 65.
        let block = (0..<65).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " x\n"
        #expect(refusal(block)?.line == 65)
        #expect(refusal(block)?.problem.hasPrefix("nested deeper than 64 levels") == true)
    }

    @Test func anAliasCountsAtTheDepthItExpandsTo() {
        // A 60-level anchored node is fine at the top level, and too deep 5 levels down.
        let deep = "d: &d " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "\n"
        #expect(refusal(deep + "e: [[[*d]]]\n")?.problem.hasPrefix("unknown key 'd'") == true, "1 + 3 + 60 = 64 levels compose")
        let error = refusal(deep + "e: [[[[*d]]]]\n")
        #expect(error?.line == 2)
        #expect(error?.problem.hasPrefix("nested deeper than 64 levels (at column 8") == true)
    }

    @Test func moreThanOneMebibyteIsRefusedBeforeParsing() throws {
        let padding = "#" + String(repeating: "-", count: RouteFileSource.maximumBytes) + "\n"
        #expect(refusal("root: home\nroutes: { home: {} }\n" + padding)?.problem == "is larger than 1024 KiB, the most navd reads of a route file; split it or remove what it repeats")
        let folder = NSTemporaryDirectory() + "navd-bounds-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.yaml"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: UInt8(ascii: "#"), count: 2 << 20)))
        #expect(throws: RouteFileError(file: path, keyPath: "", problem: "is larger than 1024 KiB, the most navd reads of a route file; split it or remove what it repeats")) {
            try RouteGraph.load(path: path)
        }
    }

    @Test func loadingAPathRefusesAFIFOAndAFolderWithoutOpeningThem() throws {
        let folder = NSTemporaryDirectory() + "navd-bounds-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder + "/x.yaml", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/fifo.yaml", 0o600) == 0)
        for (name, kind) in [("fifo.yaml", "a FIFO"), ("x.yaml", "a folder")] {
            #expect(throws: RouteFileError(file: folder + "/" + name, keyPath: "", problem: "is \(kind), not a regular file; a route file must be a regular YAML file")) {
                try RouteGraph.load(path: folder + "/" + name)
            }
        }
    }

    @Test func duplicateKeysAreRefusedWithTheLineOfTheFirst() {
        #expect(refusal("root: home\nroutes:\n  home: { title: a, title: b }\n")?.description == "bomb.yaml:3: not valid YAML: the key 'title' appears twice in the mapping that starts here; keep one")
        // A large mapping (compared through a table rather than pairwise), a key three times.
        let routes = (0..<40).map { "  r\($0): {}\n" }.joined()
        let error = refusal("root: r0\nroutes:\n" + routes + "  r7: {}\n  r7: {}\n  r3: {}\n")
        #expect(error?.description == "bomb.yaml:6: not valid YAML: the key 'r3', 'r7' appears twice in the mapping that starts here; keep one")
        // Keys are compared by their text, so a quoted and a plain spelling are the same key.
        #expect(refusal("root: home\nroutes:\n  home: {}\n  'home': {}\n")?.line == 3)
        #expect(refusal("root: home\nroutes:\n  home: { hints: { 1: a, '1': b } }\n")?.problem.hasPrefix("not valid YAML: the key '1' appears twice") == true)
    }

    @Test func aByteOrderMarkIsSkippedWhicheverWayTheFileIsRead() throws {
        let text = "\u{FEFF}root: home\nroutes:\n  home: { title: t }\n"
        #expect(try RouteGraph.load(yaml: text, file: "bom.yaml").routes["home"]?.title == "t")
        let path = NSTemporaryDirectory() + "navd-bom-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try RouteGraph.load(path: path).routes["home"]?.title == "t")
    }

    @Test func whatLibyamlsReaderRefusesIsOneLocatedLine() {
        let control = refusal("root: home\nroutes:\n  home: { title: \"a\u{1}b\" }\n")
        #expect(control?.description == "bomb.yaml:3: not valid YAML: control characters are not allowed at column 20")
        var bytes = Array("root: home\nroutes:\n  h\u{E9}me: {}\n".utf8)
        bytes[bytes.count - 8] = 0xFF  // the second byte of é
        do {
            _ = try RouteGraph.load(bytes: bytes, file: "bad.yaml")
            Issue.record("invalid UTF-8 loaded")
        } catch {
            #expect(error.description == "bad.yaml:3: not valid YAML: invalid trailing UTF-8 octet at column 5")
        }
    }
}
