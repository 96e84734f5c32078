import Foundation
import Glibc

/// A private `dbus-daemon` started with `--fork`; stopped by the pid it printed.
final class PrivateBus {
    /// The address clients connect to.
    let address: String
    /// The forked daemon's process id.
    let pid: pid_t

    /// Starts `dbus-daemon --config-file=F --fork --print-address=1 --print-pid=1`.
    init(configFile: String) throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw BenchError("cannot make a pipe") }
        let launcher: pid_t
        do {
            launcher = try spawn(
                "/usr/bin/dbus-daemon", ["--config-file=\(configFile)", "--fork", "--print-address=1", "--print-pid=1"],
                standardOutput: descriptors[1])
        } catch {
            Glibc.close(descriptors[0])
            Glibc.close(descriptors[1])
            throw error
        }
        Glibc.close(descriptors[1])
        // Read only the two lines: the forked daemon may keep the pipe's write end open.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while bytes.filter({ $0 == 10 }).count < 2 {
            let count = read(descriptors[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        Glibc.close(descriptors[0])
        waitForExit(launcher)
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let pid = pid_t(lines[1].trimmingCharacters(in: .whitespaces)) else {
            throw BenchError("dbus-daemon printed no address and pid (got \(text.debugDescription))")
        }
        address = lines[0]
        self.pid = pid
        ProcessRegistry.remember(pid)
    }

    /// Stops the daemon (SIGTERM by pid).
    func stop() {
        kill(pid, SIGTERM)
        ProcessRegistry.forget(pid)
    }
}

/// The bus configuration: scripts/private-bus.conf when run from the repository, else the
/// same text embedded here (written into `directory`).
func privateBusConfig(in directory: String) throws -> String {
    let inRepository = FileManager.default.currentDirectoryPath + "/scripts/private-bus.conf"
    if FileManager.default.fileExists(atPath: inRepository) { return inRepository }
    let path = directory + "/private-bus.conf"
    try embeddedBusConfig.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

private let embeddedBusConfig = """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <keep_umask/>
      <listen>unix:tmpdir=/tmp</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>

    """

/// A failure of the benchmark's own setup, with a sentence saying what went wrong.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String
    /// Creates the error.
    init(_ description: String) { self.description = description }
}
