import Testing
import Foundation
import Navigation
import RouteFiles
@testable import NavdService

/// Whether a route file is unchanged is decided by `sameBytes` (memcmp), not by comparing its bytes one by one.
@Suite(.timeLimit(.minutes(1)))
struct SameBytesTests {
    @Test func equalBytesInOtherBuffersAreTheSame() {
        let file = Array("root: home\nroutes:\n  home: {}\n".utf8)
        let again = Array(String(decoding: file, as: UTF8.self).utf8)
        #expect(file.sameBytes(as: again))
        #expect([UInt8]().sameBytes(as: []))
    }

    @Test func aByteOrALengthThatDiffersIsNotTheSame() {
        let file = Array(repeating: UInt8(ascii: "a"), count: 100_000)
        var last = file
        last[last.count - 1] = UInt8(ascii: "b")
        var first = file
        first[0] = 0
        #expect(!file.sameBytes(as: last))
        #expect(!file.sameBytes(as: first))
        #expect(!file.sameBytes(as: Array(file.dropLast())))
        #expect(![UInt8]().sameBytes(as: [0]))
    }
}

/// A reload's parse compares each new graph with the one its navigator served when the reload was planned, on the
/// parse's thread: the loop, which applies it, compares nothing for a file whose graph did not change.
@Suite(.timeLimit(.minutes(1)))
struct ReloadJobComparisonTests {
    func parsed(_ text: String, inForce: RouteGraph?) -> ReloadJob.Parsed? {
        let item = ReloadJob.Item(app: "one", file: "/nowhere/one.yaml", bytes: .success(Array(text.utf8)), inForce: inForce)
        let job = ReloadJob(target: nil, everything: true, items: [item], removedApps: [], calls: [], fromSignal: false, limitOverrides: [])
        job.parse()
        return job.results.first
    }

    @Test func aCommentOnlyEditIsFoundTheSameGraphByTheParse() throws {
        let graph = try RouteGraph.load(yaml: RouteGraph.demoYAML, file: "one.yaml")
        let same = try #require(parsed(RouteGraph.demoYAML + "\n# edited\n", inForce: graph))
        #expect(same.sameAsInForce)
        #expect((try? same.graph.get()) == graph)
    }

    @Test func anEditThatChangesTheGraphOrANewAppIsNotTheSame() throws {
        let graph = try RouteGraph.load(yaml: RouteGraph.demoYAML, file: "one.yaml")
        let edited = RouteGraph.demoYAML.replacingOccurrences(of: "max-undo: 100", with: "max-undo: 99")
        #expect(edited != RouteGraph.demoYAML, "the demo graph sets max-undo")
        #expect(parsed(edited, inForce: graph)?.sameAsInForce == false)
        #expect(parsed(RouteGraph.demoYAML, inForce: nil)?.sameAsInForce == false)
        #expect(parsed("not: [a route file", inForce: graph)?.sameAsInForce == false)
    }
}
