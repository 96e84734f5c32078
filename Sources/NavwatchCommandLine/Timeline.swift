import NavdClient

/// The kept revisions `navwatch --inspect` moves through (docs/devtools.md: the current one, every revision
/// `History` lists, and the base right before the oldest listed), oldest first, and which one is shown.
///
/// The view follows the newest revision while it is there; anywhere else it stays on the revision shown as
/// newer ones join.
struct Timeline {
    /// One kept revision and what is known of the change that made it.
    struct Step: Equatable {
        let revision: UInt64
        /// The change that made it as `History` lists it; nil for the base and for a current revision no
        /// listed change made (the state navd started with).
        var change: HistoryEntry?
        /// Who made the change as `GetChanges` records it (`command(uid)`); nil is shown as not recorded.
        var caller: String?
    }

    /// The kept revisions, oldest first.
    private(set) var steps: [Step] = []
    /// The index in `steps` of the revision shown, nil before the first update.
    private(set) var index: Int?

    /// The revision shown.
    var shown: Step? { index.map { steps[$0] } }
    /// navd's current revision as last listed.
    var current: UInt64? { steps.last?.revision }
    /// How many kept revisions are newer than the one shown.
    var newer: Int { index.map { steps.count - 1 - $0 } ?? 0 }

    /// Replaces the kept revisions with `current` and `history` (newest first, as `History` answers). The view
    /// stays on the revision it showed, unless it showed the newest (then it shows the new newest) or that
    /// revision is no longer kept (then the oldest kept).
    /// `callers` gives, by revision, who made each change.
    mutating func update(current: UInt64, history: [HistoryEntry], callers: [UInt64: String] = [:]) {
        let followsNewest = index == nil || newer == 0
        let previous = shown?.revision
        var steps = history.filter { $0.revision <= current }.reversed().map { Step(revision: $0.revision, change: $0, caller: callers[$0.revision]) }
        if let oldest = steps.first?.revision, oldest > 1 {
            steps.insert(Step(revision: oldest - 1, change: nil), at: 0)
        }
        if steps.last?.revision != current { steps.append(Step(revision: current, change: nil)) }
        self.steps = steps
        if followsNewest {
            index = steps.count - 1
        } else {
            index = steps.firstIndex { $0.revision == previous } ?? 0
        }
    }

    /// Shows the revision `offset` steps later (earlier when negative), stopping at either end.
    mutating func move(by offset: Int) {
        guard let index else { return }
        self.index = min(max(index + offset, 0), steps.count - 1)
    }

    /// Shows the newest revision.
    mutating func showNewest() {
        if !steps.isEmpty { index = steps.count - 1 }
    }

    /// Forgets every revision (navd went: the next one may number them anew).
    mutating func reset() {
        steps = []
        index = nil
    }
}
