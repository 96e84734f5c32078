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

    /// How many file descriptors the process holds open, nil when the process is gone.
    public static func openDescriptors(_ pid: pid_t) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }
}
