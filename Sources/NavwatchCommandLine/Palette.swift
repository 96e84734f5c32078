/// Turns a route's `color` hint into terminal colours; with NO_COLOR every style is plain.
struct Palette {
    let enabled: Bool

    /// Named colours as xterm-256 indexes, and whether text on them should be dark.
    static let named: [String: (index: Int, darkText: Bool)] = [
        "red": (196, false), "orange": (208, true), "yellow": (226, true), "green": (40, true),
        "teal": (37, true), "cyan": (51, true), "blue": (33, false), "purple": (129, false),
        "violet": (177, true), "magenta": (201, false), "pink": (213, true), "brown": (130, false),
        "black": (16, false), "white": (231, true), "gray": (245, true), "grey": (245, true),
    ]

    /// The SGR for a card in `hint`'s colour (a name above or `#rrggbb`), grey when unknown.
    func card(_ hint: String?) -> String {
        guard enabled else { return "" }
        let name = (hint ?? "").lowercased()
        if name.hasPrefix("#"), name.count == 7, let value = Int(name.dropFirst(), radix: 16) {
            let red = value >> 16, green = (value >> 8) & 0xFF, blue = value & 0xFF
            let dark = (red * 299 + green * 587 + blue * 114) / 1000 > 140
            return "\u{1B}[48;2;\(red);\(green);\(blue)m\u{1B}[\(dark ? "30" : "97")m"
        }
        let (index, darkText) = Self.named[name] ?? (240, false)
        return "\u{1B}[48;5;\(index)m\u{1B}[\(darkText ? "30" : "97")m"
    }

    /// `card` made bold, for titles.
    func title(_ hint: String?) -> String { enabled ? card(hint) + "\u{1B}[1m" : "" }
    /// The selected tab.
    var selectedTab: String { enabled ? "\u{1B}[7;1m" : "" }
    /// Quiet text (breadcrumb separators, hints).
    var dim: String { enabled ? "\u{1B}[2m" : "" }
    /// The status line.
    var status: String { enabled ? "\u{1B}[7m" : "" }
    /// The "navd gone" banner.
    var alert: String { enabled ? "\u{1B}[41;97;1m" : "" }
}
