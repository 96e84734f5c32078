import Foundation

/// Figures read from /proc for one process.
public enum ProcessStatistics {
    /// Resident memory in KiB (`VmRSS`), nil when the process is gone.
    public static func residentKiB(_ pid: pid_t) -> Int? {
        guard let status = FileText.read("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// How many file descriptors the process holds open, nil when the process is gone.
    public static func openDescriptors(_ pid: pid_t) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }
}
