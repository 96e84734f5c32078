import Foundation

/// An X server of a test's own (`Xvfb`) on a display number it picks itself (`-displayfd`), so tests
/// that run at once never share a screen; stopped by its process id when released.
///
/// ```swift
/// let display = try VirtualDisplay()
/// let window = try ChildProcess(launching: "/usr/bin/python3", arguments: [...], environment: display.environment)
/// ```
public final class VirtualDisplay: @unchecked Sendable {
    /// The X server binary.
    public static let executable = "/usr/bin/Xvfb"
    /// The screen's size in pixels.
    public let width: Int, height: Int
    /// The display name, such as `:7`.
    public let name: String
    private let server: ChildProcess

    /// Whether Xvfb is installed (tests skip with a reason when not).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Starts Xvfb with one `width`×`height` screen, 24-bit colour, no TCP, and waits up to `timeout`
    /// seconds for it to say which display it took.
    public init(width: Int = 800, height: Int = 600, timeout: Double = 20) throws {
        self.width = width
        self.height = height
        server = try ChildProcess(launching: Self.executable, arguments: [
            "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp",
        ])
        guard server.waitForOutput(containing: "\n", timeout: timeout),
              let number = Int(server.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            server.stop(with: SIGKILL)
            throw HarnessError("Xvfb did not report its display within \(timeout) s: \(server.stderrText)")
        }
        name = ":\(number)"
    }

    deinit {
        server.stop()
    }

    /// The environment that puts a program's windows on this display.
    public var environment: [String: String] { ["DISPLAY": name] }

    /// Whether the server is still running.
    public var isRunning: Bool { server.isRunning }
}
