import NavdClient
import Testing

@Suite("JSON encoding and parsing")
struct JSONTests {
    @Test("the state has the documented shape, keys in order, params typed", .timeLimit(.minutes(1)))
    func stateShape() {
        let state = VisibleState(revision: 12, tab: "rainbow", path: [
            Entry(id: "a1", route: "red", presentation: .root),
            Entry(id: "a2", route: "news-item", presentation: .push,
                  params: ["id": .int(42), "title": .string("hi \"you\""), "score": .double(2.5), "seen": .bool(true)]),
        ])
        #expect(state.json(cause: "push").encoded() == """
            {"revision":12,"cause":"push","tab":"rainbow","path":[\
            {"id":"a1","route":"red","presentation":"root","params":{}},\
            {"id":"a2","route":"news-item","presentation":"push","params":\
            {"id":42,"score":2.5,"seen":true,"title":"hi \\"you\\""}}],"top":"news-item","depth":2}
            """)
    }

    @Test("strings escape quotes, backslashes and control characters", .timeLimit(.minutes(1)))
    func escaping() {
        #expect(JSONValue.string("a\"b\\c\nd\u{01}é").encoded() == #""a\"b\\c\nd\u0001é""#)
    }

    @Test("doubles are valid JSON numbers, non-finite ones are null", .timeLimit(.minutes(1)))
    func doubles() {
        #expect(JSONValue.double(3).encoded() == "3.0")
        #expect(JSONValue.double(0.1).encoded() == "0.1")
        #expect(JSONValue.double(.infinity).encoded() == "null")
        #expect(JSONValue.number(UInt64.max).encoded() == "18446744073709551615")
    }

    @Test("parsing reads what encoding wrote", .timeLimit(.minutes(1)))
    func roundTrip() throws {
        let value = JSONValue.object([
            ("a", .array([.int(-3), .double(1.5e-7), .bool(false), .null])),
            ("b", .string("x\u{1F600}\t")), ("c", .object([])),
        ])
        #expect(try JSONValue.parse(value.encoded()) == value)
        #expect(try JSONValue.parse(#" "\ud83d\ude00" "#) == .string("\u{1F600}"))
    }

    @Test("malformed documents are refused with a position", .timeLimit(.minutes(1)))
    func malformed() {
        for text in ["", "[1,]", "{\"a\" 1}", "01", "\"abc", "[1] x", "tru", "{\"a\":1,}", "\"\\x\""] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
        }
    }
}
