import ClientCommandLine
import NavdClient

/// What `navwatch --inspect` shows, drawn onto a `Canvas` without touching the terminal: the kept range and
/// where the view is in it, the change that made the revision shown (revision, cause, time, caller), the tree
/// at that revision as `navctl show` draws it, the keys (or the revert question), and a status line.
/// Every string from the bus enters the canvas through `Canvas.text`, which makes it `terminalSafe`.
struct InspectView {
    let palette: Palette
    let unicode: Bool
    /// The kept revisions and the one shown.
    var timeline = Timeline()
    /// The state at the revision shown, when it was read.
    var state: StateAtRevision?
    /// Why the state at the revision shown could not be read, when it could not.
    var stateError: String?
    /// The revision a revert waits for `y` to go back to.
    var confirming: UInt64?
    /// Whether navd has left the bus.
    var isGone = false
    /// What the last revert (or its cancelling) did.
    var note: String?

    /// The view drawn on a grid of `rows`×`columns`; the tree is cut at the keys line.
    func canvas(rows: Int, columns: Int) -> Canvas {
        var canvas = Canvas(rows: rows, columns: columns)
        canvas.text(" " + header, row: 0, column: 0, style: palette.dim)
        canvas.text(" " + changeLine, row: 1, column: 0, style: "")
        let treeRows = max(canvas.rows - 5, 0)
        if isGone {
            canvas.text(" navd gone - waiting for it to come back", row: 3, column: 0, style: palette.alert)
        } else if let state {
            for (index, line) in state.tree.text(useUnicode: unicode).enumerated() where index < treeRows {
                canvas.text(line, row: 3 + index, column: 1, style: "")
            }
        } else if let stateError {
            canvas.text(" " + stateError, row: 3, column: 0, style: palette.alert)
        }
        if let confirming {
            canvas.fill(row: canvas.rows - 2, column: 0, height: 1, width: canvas.columns, style: palette.alert)
            canvas.text(" revert to revision \(confirming)? y reverts, any other key cancels", row: canvas.rows - 2,
                        column: 0, style: palette.alert)
        } else {
            let arrows = unicode ? "←/→" : "left/right"
            canvas.text(" \(arrows) move  Enter revert to the revision shown  q quits", row: canvas.rows - 2, column: 0,
                        style: palette.dim)
        }
        canvas.fill(row: canvas.rows - 1, column: 0, height: 1, width: canvas.columns, style: palette.status)
        canvas.text(status, row: canvas.rows - 1, column: 0, style: palette.status)
        return canvas
    }

    /// `inspect: kept 3-12`, and how many newer revisions there are when the view is not at the newest.
    var header: String {
        guard let first = timeline.steps.first, let current = timeline.current else { return "inspect: no revision yet" }
        let newer = timeline.newer
        return "inspect: kept \(first.revision)-\(current)"
            + (newer > 0 ? " | \(newer) newer revision\(newer == 1 ? "" : "s") \(unicode ? "→" : "->")" : " | newest")
    }

    /// The change that made the revision shown: revision, cause, time and caller; the base and a revision no
    /// listed change made say so.
    var changeLine: String {
        guard let step = timeline.shown else { return "" }
        guard let change = step.change else {
            let base = step.revision != timeline.current
            return "revision \(step.revision)  " + (base ? "(the base: the change that made it is no longer listed)"
                                                         : "(no listed change made it: navd started with it)")
        }
        return "revision \(step.revision)  \(change.cause)  \(localTime(change.time))  caller "
            + (step.caller ?? "not recorded")
    }

    /// ` rev 7 of 3-12 | current 12 | <note> | q quits`, or the gone marker.
    var status: String {
        var text = " "
        if let step = timeline.shown, let first = timeline.steps.first, let current = timeline.current {
            text += "rev \(step.revision) of \(first.revision)-\(current) | current \(current)"
        }
        if isGone { text += (text.count > 1 ? " | " : "") + "navd gone" }
        if let note { text += (text.count > 1 ? " | " : "") + note }
        return text + " | q quits"
    }
}
