import ClientCommandLine
import NavdClient
import Navigation

/// What a replayed call left, to compare with what the recording says the change left: the state after it,
/// or navd's refusal.
enum ReplayedResult {
    /// The call was answered; GetState after it.
    case state(VisibleState)
    /// navd refused the call: its error name and message.
    case refused(name: String, message: String)
}

/// The comparison of one recorded change with its replay (docs/devtools.md, "Recordings"): revision, tab and
/// path (ids, routes, presentations, params; in a redacted recording params by type only), and the report of
/// the first difference, recorded and replayed side by side, every string terminal-safe.
struct ReplayComparison {
    /// The recorded revision, tab and path after the change.
    let recorded: VisibleState
    /// What the replay left.
    let replayed: ReplayedResult
    /// Whether params are compared by type only (a redacted recording holds placeholders).
    let byType: Bool

    /// Whether the replay left what the recording says.
    var isEqual: Bool {
        guard case .state(let state) = replayed else { return false }
        return state.revision == recorded.revision && state.tab == recorded.tab
            && state.path.count == recorded.path.count
            && zip(state.path, recorded.path).allSatisfy { Self.same($0, $1, byType: byType) }
    }

    /// Whether two entries are the same screen: id, route, presentation, and params (by value, or by name and
    /// type).
    static func same(_ one: Entry, _ other: Entry, byType: Bool) -> Bool {
        guard one.id == other.id, one.route == other.route, one.presentation == other.presentation else { return false }
        guard byType else { return one.params == other.params }
        return one.params.count == other.params.count
            && one.params.allSatisfy { key, value in other.params[key]?.type == value.type }
    }

    /// The report: `first difference at HEADING`, the request, then recorded and replayed side by side.
    func report(heading: String, request: String) -> [String] {
        var lines = ["first difference at \(heading)".terminalSafe]
        if !request.isEmpty { lines.append("  request:  \(request.terminalSafe)") }
        var rows: [(String, String, Bool)] = []
        switch replayed {
        case .refused(let name, let message):
            rows.append(("revision \(recorded.revision)", "refused: \(name)", false))
            rows.append(("", message, false))
        case .state(let state):
            rows.append(("revision \(recorded.revision)", "revision \(state.revision)", recorded.revision == state.revision))
            rows.append(("tab \(Self.quoted(recorded.tab))", "tab \(Self.quoted(state.tab))", recorded.tab == state.tab))
            for index in 0..<max(recorded.path.count, state.path.count) {
                let left = index < recorded.path.count ? Self.text(recorded.path[index]) : ""
                let right = index < state.path.count ? Self.text(state.path[index]) : ""
                let equal = index < recorded.path.count && index < state.path.count
                    && Self.same(recorded.path[index], state.path[index], byType: byType)
                rows.append((left, right, equal))
            }
        }
        let cells = rows.map { ($0.0.terminalSafe, $0.1.terminalSafe, $0.2) }
        let width = max(8, cells.map(\.0.count).max() ?? 0)
        lines.append("    " + "recorded".padding(to: width) + "   replayed")
        for (left, right, equal) in cells {
            lines.append("  \(equal ? " " : "*") " + left.padding(to: width) + "   " + right)
        }
        if byType { lines.append("  (a redacted recording: params compared by type)") }
        return lines
    }

    /// One path entry: `#ID ROUTE (PRESENTATION) {PARAMS}`.
    static func text(_ entry: Entry) -> String {
        let params = entry.params.isEmpty ? "" : " " + entry.params.json.encoded()
        return "\(entry.id) \(entry.route) (\(entry.presentation.rawValue))\(params)"
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
