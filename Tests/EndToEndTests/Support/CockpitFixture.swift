import Foundation
import Glibc
import TestSupport
import TestFixtures

/// What the Cockpit page's browser test needs (Debian's cockpit-ws and cockpit-bridge, chromium,
/// chromium-driver, python3-selenium, python3-dbus), and whether this machine has it.
enum CockpitPage {
    static let repository = Fixture.repository
    static let script = repository + "/Tests/Scripts/cockpit-browser-test.py"
    static let webService = "/usr/lib/cockpit/cockpit-ws"
    /// Debian's Python, where python3-selenium and python3-dbus are.
    static let python = "/usr/bin/python3"
    /// Where a run's screenshots, console logs and downloads are kept (for a look after a failure).
    static let artifacts = repository + "/.build/cockpit-page"
    /// The user cockpit-ws and its bridge run as when the tests run as root: `nobody`, whom an app's
    /// `access:` can refuse (root and navd's own user are always allowed: docs/multi-user.md).
    static let pageUser: uid_t = 65534

    /// Why the page cannot be tested here, or nil when it can.
    static let missingReason: String? = {
        if let reason = EndToEnd.navdMissingReason { return reason }
        for tool in [webService, "/usr/bin/cockpit-bridge", "/usr/bin/chromium", "/usr/bin/chromedriver", python]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is not installed (scripts/deps.sh installs cockpit-ws, cockpit-bridge, chromium, chromium-driver)"
        }
        guard let probe = try? ChildProcess.run(python, ["-c", "import selenium, dbus"]), probe.status == 0 else {
            return "python3-selenium or python3-dbus is not installed (scripts/deps.sh installs them)"
        }
        return nil
    }()

    /// True when the page can be tested; prints the reason once when it cannot.
    static var available: Bool {
        if let missingReason { print("skipping the Cockpit page: \(missingReason)") }
        return missingReason == nil
    }

    /// Why the check of a navigator the user may not read cannot run, or nil when it can: it needs the
    /// page to run as another user than navd's, which takes root (setpriv, and a bind mount in `unshare -m`).
    static let deniedMissingReason: String? = {
        guard getuid() == 0 else {
            return "not root: cockpit-ws would run as navd's own user, whom access: always allows (docs/multi-user.md)"
        }
        guard let probe = try? ChildProcess.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", "mount --bind / /mnt"], timeout: 10),
              probe.status == 0
        else { return "cannot bind-mount inside unshare -m here" }
        return nil
    }()

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    static func freePort() throws -> UInt16 {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw HarnessError("socket: \(errno)") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socketDescriptor, pointer, length) == 0 && getsockname(socketDescriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError("bind 127.0.0.1:0: \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func accepts(_ port: UInt16) -> Bool {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { return false }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// A private bus, a navd with two apps (`shop`, open to all; `locked`, readable by root and navd's
/// user only), and `cockpit-ws --local-session=cockpit-bridge` on a free port of 127.0.0.1 serving
/// the checkout's `cockpit/` folder as package `navd` (its XDG_DATA_HOME's `cockpit/navd`), with the
/// private bus as its session bus. As root, cockpit-ws runs as `nobody` inside `unshare -m`, where the
/// folder is bind-mounted (a checkout under /root is not readable by nobody); otherwise it runs as the
/// test's user with a symlink. Every process is stopped by its pid.
final class CockpitSession: OnPrivateBus {
    static let shop = "root: home\nroutes:\n  home: {}\n  item: { params: { name: string } }\n"
    static let locked = "root: home\naccess:\n  change: []\n  read: []\nroutes:\n  home: {}\n"

    let bus: PrivateBus
    let navd: NavdProcess
    let directory = TemporaryDirectory.make("navd-cockpit")
    let port: UInt16
    /// Whether cockpit-ws runs as another user than navd (so that `locked` refuses it).
    let asAnotherUser: Bool
    private(set) var webService: ChildProcess?

    var url: String { "http://127.0.0.1:\(port)/cockpit/@localhost/navd/index.html" }

    init(stateDirectory: String) throws {
        chmod(directory, 0o755)
        bus = try PrivateBus()
        let apps = directory + "/apps"
        try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: true)
        try Self.shop.write(toFile: apps + "/shop.yaml", atomically: true, encoding: .utf8)
        try Self.locked.write(toFile: apps + "/locked.yaml", atomically: true, encoding: .utf8)
        navd = try NavdProcess.started(bus: bus, stateDirectory: stateDirectory, appsDirectory: apps)
        asAnotherUser = CockpitPage.deniedMissingReason == nil
        port = try CockpitPage.freePort()
        try startWebService()
    }

    deinit {
        webService?.stop()
        navd.stop()
        bus.stop()
        TemporaryDirectory.remove(directory)
    }

    private func startWebService() throws {
        let data = directory + "/data", runtime = directory + "/runtime", package = data + "/cockpit/navd"
        try FileManager.default.createDirectory(atPath: data + "/cockpit", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        for folder in [data, data + "/cockpit"] { chmod(folder, 0o755) }
        let environment = bus.environment.merging(["HOME": runtime, "XDG_RUNTIME_DIR": runtime, "XDG_DATA_HOME": data]) { $1 }
        let command = [CockpitPage.webService, "--local-session=cockpit-bridge", "--port", "\(port)", "--address", "127.0.0.1"]
        if asAnotherUser {
            chmod(runtime, 0o700)
            chown(runtime, CockpitPage.pageUser, CockpitPage.pageUser)
            try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
            let user = CockpitPage.pageUser
            let script = "mount --bind \(Spawn.shellQuoted(CockpitPage.repository + "/cockpit")) \(Spawn.shellQuoted(package)) && "
                + "exec /usr/bin/setpriv --reuid \(user) --regid \(user) --clear-groups "
                + command.map(Spawn.shellQuoted).joined(separator: " ")
            webService = try ChildProcess(launching: "/usr/bin/unshare", arguments: ["-m", "/bin/sh", "-c", script], environment: environment)
        } else {
            try FileManager.default.createSymbolicLink(atPath: package, withDestinationPath: CockpitPage.repository + "/cockpit")
            webService = try ChildProcess(launching: command[0], arguments: Array(command.dropFirst()), environment: environment)
        }
        let deadline = Date().addingTimeInterval(20)
        while !CockpitPage.accepts(port) {
            if Date() >= deadline || webService?.isRunning != true {
                throw HarnessError("cockpit-ws did not listen on 127.0.0.1:\(port): \(webService?.stderrText ?? "")")
            }
            usleep(20_000)
        }
    }

    /// cockpit-ws's and its bridge's messages so far.
    var webServiceLog: String { webService?.stderrText ?? "" }
}
