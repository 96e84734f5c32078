import ClientCommandLine
import DBus
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

    @Test("C0, DEL and C1 controls and ESC are escaped as \\u, so JSON on a terminal cannot drive it",
          .timeLimit(.minutes(1)))
    func terminalControls() throws {
        #expect(JSONValue.string("\u{1B}[2J\u{1B}]0;pwned\u{07}\u{7F}\u{9B}\u{85}\u{A0}").encoded()
            == #""\u001b[2J\u001b]0;pwned\u0007\u007f\u009b\u0085\#u{A0}""#)
        let text = "\u{1B}\u{9B}x"
        #expect(try JSONValue.parse(JSONValue.string(text).encoded()) == .string(text))
    }

    @Test("an app has the documented shape", .timeLimit(.minutes(1)))
    func app() {
        var properties = NavigatorProperties()
        properties.revision = 7
        properties.top = "cart"
        properties.topID = "#2"
        properties.depth = 2
        let app = AppInfo(name: "shop", path: ObjectPath(unchecked: "/org/navd/Navigator1/apps/shop"), properties: properties)
        #expect(app.json.encoded()
            == ##"{"name":"shop","path":"/org/navd/Navigator1/apps/shop","revision":7,"top":"cart","topId":"#2","depth":2,"tab":"","access":{}}"##)
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
        #expect(try JSONValue.parse("[1e308, -1e308, 1e-400, 18446744073709551616]")
            == .array([.double(1e308), .double(-1e308), .double(0), .double(18446744073709551616)]))
    }

    @Test("strings read the same with and without escapes, around and between runs of plain text",
          .timeLimit(.minutes(1)))
    func stringRuns() throws {
        let cases: [(String, String)] = [
            (#""""#, ""), (#""plain é ✓""#, "plain é ✓"), (#""\n""#, "\n"), (#""a\nb""#, "a\nb"),
            (#""\"quoted\"""#, "\"quoted\""), (#""x\\y\/z\tw""#, "x\\y/z\tw"),
            (#""é\u00e9é\ud83d\ude00!""#, "ééé\u{1F600}!"), (#""\b\f\r""#, "\u{08}\u{0C}\r"),
        ]
        for (text, expected) in cases {
            #expect(try JSONValue.parse(text) == .string(expected), "\(text)")
            #expect(try JSONValue.parse("{\(text):[\(text)]}") == .object([(expected, .array([.string(expected)]))]), "\(text)")
        }
        for (text, offset) in [("\"ab", 3), ("\"a\\n", 4), ("\"a\u{01}\"", 2), ("\"a\\nb\u{01}\"", 5), ("\"a\\", 3)] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
            do { _ = try JSONValue.parse(text) } catch { #expect(error.offset == offset, "\(text): \(error)") }
        }
    }

    @Test("malformed documents are refused with a position", .timeLimit(.minutes(1)))
    func malformed() {
        for text in ["", "[1,]", "{\"a\" 1}", "01", "\"abc", "[1] x", "tru", "{\"a\":1,}", "\"\\x\"", "\"\\u+041\"", "\"\\u-000\"", "\"\\u00e\"", "1e400", "[-2e+555]"] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
        }
    }
}
