import Foundation

/// Figures read from /proc for one process.
public enum ProcessStatistics {
    /// Resident memory in KiB (`VmRSS`), nil when the process is gone.
    public static func residentKiB(_ pid: pid_t) -> Int? {
        statusKiB(pid, "VmRSS")
    }

    /// The most resident memory the process ever had, in KiB (`VmHWM`), nil when it is gone.
    public static func peakResidentKiB(_ pid: pid_t) -> Int? {
        statusKiB(pid, "VmHWM")
    }

    /// A `KEY:  N kB` line of `/proc/PID/status`.
    private static func statusKiB(_ pid: pid_t, _ key: String) -> Int? {
        guard let status = FileText.read("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// The CPU time the process has used so far, in seconds: user plus system time (`utime` + `stime` of
    /// `/proc/PID/stat`, every thread's, those that ended included), nil when the process is gone.
    public static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let stat = FileText.read("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3, utime field 14 and stime field 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// How many file descriptors the process holds open, nil when the process is gone.
    public static func openDescriptors(_ pid: pid_t) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }
}
