import DBus
import Testing

/// `XML.escape` (introspection, the printed bus policy) escapes every `&`, `<`, `>`, `"` and `'` as an XML
/// parser reads them, scalar by scalar: a combining mark after `&` once made one Swift character of the two,
/// which went out unescaped (found by the bus-policy fuzz target, Tests/Fuzz/bus-policy/regressions).
struct XMLEscapeRegressionTests {
    @Test(arguments: ["&", "<", ">", "\"", "'"])
    func aSpecialCharacterBeforeACombiningMarkIsEscaped(_ special: String) {
        let escaped = XML.escape("ali" + special + "\u{059C}ce")
        #expect(!escaped.unicodeScalars.contains { "&<>\"'".unicodeScalars.contains($0) && $0 != "&" })
        #expect(escaped.unicodeScalars.filter { $0 == "&" }.count == 1, "only the escape's own ampersand: \(escaped)")
        #expect(escaped.hasSuffix(";\u{059C}ce"))
    }

    @Test func plainTextIsUnchangedAndEachSpecialIsEscaped() {
        #expect(XML.escape("shop") == "shop")
        #expect(XML.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
    }
}
