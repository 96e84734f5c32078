import BusHarness
import Foundation

/// A process's resident memory from /proc/PID/status, split by what backs it, in MiB.
struct ProcessMemory {
    /// RssAnon: private, anonymous pages (heap, stacks, written data): what the process cannot give back.
    var anonymous: Double
    /// RssFile: pages of mapped files (the executable, shared libraries); clean ones the kernel
    /// can drop and read again, shared with every process mapping the same file.
    var file: Double
    /// RssShmem: shared memory.
    var shared: Double
    /// VmRSS, the sum.
    var total: Double
    /// Pss (/proc/PID/smaps_rollup): each resident page divided by the processes that map it, so that
    /// pages of one executable shared by navd, navctl and navwatch are counted once across them.
    var proportional: Double = 0

    /// Reads /proc/`pid`/status; nil when the process is gone.
    static func of(_ pid: pid_t) -> ProcessMemory? {
        guard let status = FileText.read("/proc/\(pid)/status") else { return nil }
        var values: [String: Double] = [:]
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, fields[0].hasSuffix(":"), let kibibytes = Double(fields[1]) {
                values[String(fields[0].dropLast())] = kibibytes / 1024
            }
        }
        guard let total = values["VmRSS"] else { return nil }
        var memory = ProcessMemory(
            anonymous: values["RssAnon"] ?? 0, file: values["RssFile"] ?? 0, shared: values["RssShmem"] ?? 0, total: total)
        for line in (FileText.read("/proc/\(pid)/smaps_rollup") ?? "").split(separator: "\n") where line.hasPrefix("Pss:") {
            memory.proportional = (line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
        }
        return memory
    }

    /// The file-backed resident pages of `pid` by file (from /proc/PID/smaps: each mapping's
    /// Rss less its Anonymous pages), largest first, in MiB.
    static func fileBacked(_ pid: pid_t) -> [(file: String, mebibytes: Double)] {
        guard let smaps = FileText.read("/proc/\(pid)/smaps") else { return [] }
        var byFile: [String: Double] = [:]
        var current: String?
        var rss = 0.0
        func close() {
            if let current { byFile[current, default: 0] += rss }
            current = nil
            rss = 0
        }
        for line in smaps.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first else { continue }
            if first.contains("-") && !first.hasSuffix(":") {
                close()
                if fields.count >= 6, fields[5].hasPrefix("/") { current = String(fields[5].split(separator: "/").last ?? "") }
            } else if first == "Rss:", fields.count >= 2, let value = Double(fields[1]) {
                rss += value / 1024
            } else if first == "Anonymous:", fields.count >= 2, let value = Double(fields[1]) {
                rss -= value / 1024
            }
        }
        close()
        return byFile.map { ($0.key, $0.value) }.filter { $0.1 > 0.05 }.sorted { $0.1 > $1.1 }
    }
}

extension BenchRun {
    /// Appends `key`.private (RssAnon, against `privateBudget` MiB) and `key`.file (RssFile,
    /// reported with what it is made of) for the process `pid` in `state`; given `residentBudget`,
    /// also `key`.rss, the two together, against it.
    func appendMemoryFigures(_ pid: pid_t, key: String, state: String, privateBudget: Double, residentBudget: Double? = nil) {
        guard let memory = ProcessMemory.of(pid) else { return }
        var anonymous = Figure("\(key).private", "navd private (anonymous) RSS, \(state)", value: memory.anonymous, unit: "MiB")
        anonymous.check(atMost: privateBudget, unit: "MiB")
        anonymous.note = "RssAnon of \(format2(memory.total)) MiB VmRSS"
        figures.append(anonymous)
        var file = Figure("\(key).file", "navd file-backed RSS, \(state)", value: memory.file, unit: "MiB")
        let parts = ProcessMemory.fileBacked(pid).prefix(4).map { "\($0.file) \(format2($0.mebibytes))" }
        file.note = "RssFile: pages of mapped files as touched (navd's own: its statically linked code and read-only data), clean, shared, given back under memory pressure; MiB: \(parts.joined(separator: ", "))"
        if memory.shared > 0 { file.note! += "; RssShmem \(format2(memory.shared)) MiB" }
        figures.append(file)
        if let residentBudget {
            var resident = Figure("\(key).rss", "navd RSS, private + file-backed, \(state)", value: memory.anonymous + memory.file, unit: "MiB")
            resident.check(atMost: residentBudget, unit: "MiB")
            resident.note = "\(format2(memory.anonymous)) private + \(format2(memory.file)) file-backed"
            figures.append(resident)
            var proportional = Figure("\(key).pss", "navd PSS (shared pages divided among the processes mapping them), \(state)", value: memory.proportional, unit: "MiB")
            proportional.note = "beside \(format2(memory.total)) MiB RSS"
            figures.append(proportional)
        }
    }
}
