import Foundation

/// The whole run: the machine, the options and every figure.
struct BenchReport: Codable {
    /// `nproc` and the CPU model from /proc/cpuinfo.
    var machine: MachineFacts
    /// Calls per figure and round, rounds, quick mode.
    var callsPerRound, rounds: Int
    var quick: Bool
    /// Where the floor ran and why.
    var floorPlacement: String
    var figures: [Figure]
    /// How many targets were met, of how many.
    var targetsMet, targetsTotal: Int
}

/// The machine the run came from.
struct MachineFacts: Codable {
    var processors: Int
    var cpuModel: String
    var kernel: String

    /// Reads them from /proc.
    static func current() -> MachineFacts {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "unknown")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return MachineFacts(processors: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model, kernel: kernel)
    }
}

extension BenchReport {
    /// The table, one figure per line.
    func table() -> String {
        let header = ["figure", "unit", "p50", "p99", "mean", "ops/s", "ratio", "target", "met?"]
        var rows: [[String]] = [header]
        for figure in figures {
            rows.append([
                figure.key, figure.unit, formatNumber(figure.p50), formatNumber(figure.p99), formatNumber(figure.mean),
                figure.opsPerSecond.map { "\(Int($0.rounded()))" } ?? "-",
                figure.ratio.map(format2) ?? "-",
                figure.target ?? "-",
                figure.met.map { $0 ? "yes" : "NO" } ?? "-",
            ])
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var lines: [String] = []
        for (rowIndex, row) in rows.enumerated() {
            let cells = row.enumerated().map { index, cell in
                index == 0 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }
            lines.append(cells.joined(separator: "  "))
            if rowIndex == 0 { lines.append(String(repeating: "-", count: lines[0].count)) }
        }
        var text = "navd-bench: \(machine.processors) CPUs, \(machine.cpuModel), Linux \(machine.kernel); "
        text += "\(rounds) rounds x \(callsPerRound) calls\(quick ? " (quick)" : "")\n"
        text += "floor: \(floorPlacement)\n\n"
        text += lines.joined(separator: "\n") + "\n\n"
        for figure in figures {
            var parts: [String] = []
            if let ratioOf = figure.ratioOf { parts.append("ratio = \(ratioOf)") }
            if let note = figure.note { parts.append(note) }
            if figure.errors > 0 { parts.append("\(figure.errors) error replies") }
            if !parts.isEmpty { text += "  \(figure.key): \(parts.joined(separator: "; "))\n" }
        }
        text += "\ntargets met: \(targetsMet) of \(targetsTotal)\n"
        return text
    }

    /// The run as Markdown: `run` (the command line), the machine, the table, then each figure's notes.
    func markdown(run: String) -> String {
        var text = "Run: `\(run)`, \(Self.today()); \(machine.processors) CPUs, \(machine.cpuModel), Linux \(machine.kernel); "
        text += "\(rounds) rounds x \(callsPerRound) calls\(quick ? " (quick)" : ""); floor: \(floorPlacement); "
        text += "targets met: \(targetsMet) of \(targetsTotal).\n\n"
        text += "| figure | unit | p50 | p99 | mean | ops/s | ratio | target | met? |\n"
        text += "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |\n"
        for figure in figures {
            let cells = [
                "`\(figure.key)`", figure.unit, formatNumber(figure.p50), formatNumber(figure.p99), formatNumber(figure.mean),
                figure.opsPerSecond.map { "\(Int($0.rounded()))" } ?? "-", figure.ratio.map(format2) ?? "-",
                figure.target ?? "-", figure.met.map { $0 ? "yes" : "**no**" } ?? "-",
            ]
            text += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        text += "\n"
        for figure in figures {
            var parts: [String] = []
            if let ratioOf = figure.ratioOf { parts.append("ratio = \(ratioOf)") }
            if let note = figure.note { parts.append(note) }
            if figure.errors > 0 { parts.append("\(figure.errors) error replies") }
            if !parts.isEmpty { text += "- `\(figure.key)`: \(parts.joined(separator: "; ").replacingOccurrences(of: "|", with: "\\|"))\n" }
        }
        return text
    }

    /// The date of the run, as YYYY-MM-DD (UTC).
    static func today() -> String {
        var now = time(nil), parts = tm()
        gmtime_r(&now, &parts)
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// Writes the JSON form to `path`.
    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
