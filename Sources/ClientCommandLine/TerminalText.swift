import JSON

// Nothing from the bus controls a terminal: a param, a name or a message may hold any Unicode, and a
// terminal acts on some of it (ESC starts a sequence that can clear the screen or set the window's title;
// C1 controls such as U+009B do the same on terminals that read them). Everything navctl and navwatch
// write for people passes through `terminalSafe` at the point where it is written.

extension String {
    /// The text with every C0 control, DEL, C1 control (U+0080–U+009F) and ESC written visibly: `\e` for
    /// ESC, `\n` `\r` `\t`, `\x07` for the other C0 controls and DEL, `\u{9b}` for C1 controls. Everything
    /// else, backslashes included, is kept, so escaping escaped text changes nothing.
    public var terminalSafe: String {
        guard unicodeScalars.contains(where: \.isTerminalControl) else { return self }
        var output = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard scalar.isTerminalControl else {
                output.append(scalar)
                continue
            }
            let escaped: String
            switch scalar {
            case "\u{1B}": escaped = "\\e"
            case "\n": escaped = "\\n"
            case "\r": escaped = "\\r"
            case "\t": escaped = "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                let padded = hex.count < 2 ? "0" + hex : hex
                escaped = scalar.value < 0x80 ? "\\x" + padded : "\\u{" + padded + "}"
            }
            output.append(contentsOf: escaped.unicodeScalars)
        }
        return String(output)
    }

    /// The text made `terminalSafe` line by line, its line breaks kept: for messages whose lines are meant
    /// (navd's refusal of several route files names each on a line of its own).
    public var terminalSafeLines: String {
        guard unicodeScalars.contains(where: \.isTerminalControl) else { return self }
        return split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }
            .joined(separator: "\n")
    }
}
