import ClientCommandLine
import Testing

/// `terminalSafe` is the one escaping every client output for people passes through: C0 controls, DEL, C1
/// controls and ESC are written visibly, everything else is kept.
@Suite("text for terminals", .timeLimit(.minutes(1)))
struct TerminalTextTests {
    @Test("the escape sequences of a hostile param are shown, not sent")
    func hostile() {
        #expect("\u{1B}[2J\u{1B}]0;pwned\u{07}".terminalSafe == #"\e[2J\e]0;pwned\x07"#)
        #expect("a\nb\rc\td\u{0}e\u{7F}f\u{9B}g\u{85}h".terminalSafe == #"a\nb\rc\td\x00e\x7ff\u{9b}g\u{85}h"#)
        #expect("\r\n".terminalSafe == #"\r\n"#, "a CR LF grapheme is two controls")
    }

    @Test("every control is escaped, nothing else is, and escaping twice changes nothing")
    func everyScalar() {
        for value in UInt32(0)...0x2FF {
            let scalar = Unicode.Scalar(value)!
            let text = "x" + String(Character(scalar)) + "y"
            let safe = text.terminalSafe
            #expect(!safe.unicodeScalars.contains { $0.isTerminalControl }, "U+\(String(value, radix: 16))")
            #expect(safe == text || scalar.isTerminalControl, "U+\(String(value, radix: 16)) was changed")
            #expect(safe.terminalSafe == safe)
        }
        #expect(#"back\slash, "quotes", ünïcödé ✓ 🙂"#.terminalSafe == #"back\slash, "quotes", ünïcödé ✓ 🙂"#)
    }

    @Test("a message keeps its lines; each line is escaped")
    func lines() {
        #expect("refused 1 file:\n/a.yaml:3: bad \u{1B}[31m".terminalSafeLines == "refused 1 file:\n/a.yaml:3: bad \\e[31m")
    }
}
