import NavdClient
import TestSupport

/// Escape sequences any caller can put into what navd holds, and how navctl and navwatch must show them.
enum HostileText {
    /// Clears the screen, sets the terminal's title to `pwned`, then a C1 control.
    static let raw = "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{9B}1m"
    /// `raw` as a terminal must be shown it: every control escaped.
    static let shown = #"\e[2J\e]0;pwned\x07\u{9b}1m"#
}

extension NavdOnPrivateBus {
    /// A navd whose top screen (`call-error` on the news tab, at revision 3) carries `HostileText.raw` as
    /// its param `message`.
    static func withHostileParam() throws -> NavdOnPrivateBus {
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        _ = try client.send(.selectTab("news"))
        _ = try client.send(.push("call-error", params: ["message": .string(HostileText.raw)]))
        return fixture
    }
}
