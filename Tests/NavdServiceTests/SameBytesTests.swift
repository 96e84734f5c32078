import Testing
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
