/// One line of the table and one object of the JSON file.
struct Figure: Codable {
    /// Stable key, such as `latency.navd` (the smoke test checks the list of keys).
    var key: String
    /// What was measured, for a person.
    var label: String
    /// Unit of p50 / p99 / mean: `us`, `ms` or `MiB`.
    var unit: String
    /// Median, 99th percentile and mean, in `unit`.
    var p50, p99, mean: Double
    /// Calls per second, where that means something.
    var opsPerSecond: Double?
    /// The figure's ratio (see `ratioOf`), where it has one.
    var ratio: Double?
    /// What the ratio divides, such as "navd p50 / floor p50".
    var ratioOf: String?
    /// The target, such as "<= 1.25".
    var target: String?
    /// Whether the target was met (nil when there is no target).
    var met: Bool?
    /// Samples behind the figure, and error replies among them.
    var samples, errors: Int
    /// Anything a reader needs to trust the figure.
    var note: String?

    /// A timing figure from a summary.
    init(_ key: String, _ label: String, _ summary: Summary, unit: String = "us", showOps: Bool = true) {
        self.key = key
        self.label = label
        self.unit = unit
        p50 = summary.p50
        p99 = summary.p99
        mean = summary.mean
        opsPerSecond = showOps ? summary.opsPerSecond : nil
        samples = summary.count
        errors = summary.errors
    }

    /// A single value (memory): p50 = p99 = mean = value.
    init(_ key: String, _ label: String, value: Double, unit: String) {
        let single = Summary(p50: value, p99: value, mean: value, opsPerSecond: 0, count: 1, errors: 0)
        self.init(key, label, single, unit: unit, showOps: false)
    }

    /// A latency figure of `subject` against `reference`: the ratio of their p50s (`meaning`) checked against
    /// `bound`, and a note giving the ratio of their p99s, then `more`.
    init(_ key: String, _ label: String, _ subject: Summary, over reference: Summary, of meaning: String,
         atMost bound: Double, showOps: Bool = true, more: String? = nil) {
        self.init(key, label, subject, showOps: showOps)
        compare(ratio: subject.p50 / reference.p50, of: meaning, atMost: bound)
        note = "p99 ratio \(format2(subject.p99 / reference.p99))" + (more.map { "; " + $0 } ?? "")
    }

    /// The figure with its ratio set and checked (see `compare`), and `note` when one is given.
    func comparing(
        ratio: Double, of meaning: String, atMost bound: Double? = nil, atLeast lower: Double? = nil, note: String? = nil
    ) -> Figure {
        var figure = self
        figure.compare(ratio: ratio, of: meaning, atMost: bound, atLeast: lower)
        if let note { figure.note = note }
        return figure
    }

    /// Sets the ratio and checks it against an upper (`atMost`) or lower bound.
    mutating func compare(ratio: Double, of meaning: String, atMost bound: Double? = nil, atLeast lower: Double? = nil) {
        self.ratio = ratio
        ratioOf = meaning
        if let bound {
            target = "<= \(format2(bound))"
            met = ratio <= bound
        } else if let lower {
            target = ">= \(format2(lower))"
            met = ratio >= lower
        }
    }
}

/// Two decimals.
func format2(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    var text = "\(scaled)"
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < 2 { text += String(repeating: "0", count: 2 - decimals) }
    }
    return text
}

/// A number for the table: at most 4 significant digits before the point, one after.
func formatNumber(_ value: Double) -> String {
    if value >= 10_000 { return "\(Int(value.rounded()))" }
    let scaled = (value * 10).rounded() / 10
    return "\(scaled)"
}
