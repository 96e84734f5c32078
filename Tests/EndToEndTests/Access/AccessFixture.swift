import DBus
import Foundation
import Testing
import TestSupport

/// Real users for the access tests (docs/multi-user.md): a test `/etc/passwd` and `/etc/group`
/// (the machine's own, plus the users below) bind-mounted inside `unshare -m` for navd and for each
/// client, a private bus that lets every user connect, navd running as its own user `navd`, and each
/// client started as its user with `setpriv --init-groups`. Everything is stopped by pid.
///
/// | user | uid | groups |
/// | --- | --- | --- |
/// | navd | 59000 | navd |
/// | alice | 59001 | alice |
/// | bob | 59002 | bob |
/// | carol | 59003 | carol, shop |
/// | dave | 59004 | dave, monitor |
final class MultiUserNavd: @unchecked Sendable {
    static let users: [(name: String, uid: Int)] = [("navd", 59000), ("alice", 59001), ("bob", 59002), ("carol", 59003), ("dave", 59004)]
    static let groups: [(name: String, gid: Int, members: String)] = [("shop", 59100, "carol"), ("monitor", 59101, "dave")]

    /// A shop only alice and group shop may change and only they and group monitor may read.
    static let shop = """
        root: catalog
        access:
          change: [alice, "@shop"]
          read: ["@monitor"]
        routes:
          catalog: {}
          product: { params: { sku: int } }

        """

    /// An app without `access:`, open to everyone.
    static let mail = "root: inbox\nroutes:\n  inbox: {}\n  message: {}\n"

    let directory: String
    let bus: PrivateBus
    let navd: NavdProcess

    /// Why the machine cannot run these tests, or nil when it can.
    static let missingReason: String? = {
        guard getuid() == 0 else { return "not root (bind-mounting a test /etc/passwd inside unshare -m and setpriv need root)" }
        for tool in ["/usr/bin/unshare", "/usr/bin/setpriv", "/usr/bin/dbus-send"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing"
        }
        guard PrivateBus.isAvailable, NavdProcess.isBuilt, Products.exists("navctl") else { return "dbus-daemon, navd or navctl is missing" }
        guard let probe = try? ChildProcess.run("/usr/bin/unshare", ["-m", "/bin/sh", "-c", "mount --bind /etc/passwd /etc/passwd"], timeout: 10),
              probe.status == 0
        else { return "cannot bind-mount inside unshare -m here" }
        return nil
    }()

    /// True when the tests can run; prints why not otherwise.
    static var available: Bool {
        if let missingReason { print("skipping the multi-user access tests: \(missingReason)") }
        return missingReason == nil
    }

    init(shop: String = MultiUserNavd.shop) throws {
        directory = TemporaryDirectory.make("navd-access")
        chmod(directory, 0o755)
        var passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0:root:/root:/bin/sh\n"
        var group = (try? String(contentsOfFile: "/etc/group", encoding: .utf8)) ?? "root:x:0:\n"
        for user in Self.users {
            passwd += "\(user.name):x:\(user.uid):\(user.uid)::/nonexistent:/usr/sbin/nologin\n"
            group += "\(user.name):x:\(user.uid):\n"
        }
        for entry in Self.groups { group += "\(entry.name):x:\(entry.gid):\(entry.members)\n" }
        try passwd.write(toFile: directory + "/passwd", atomically: true, encoding: .utf8)
        try group.write(toFile: directory + "/group", atomically: true, encoding: .utf8)
        let apps = directory + "/apps"
        try FileManager.default.createDirectory(atPath: apps, withIntermediateDirectories: true)
        chmod(apps, 0o755)
        try shop.write(toFile: apps + "/shop.yaml", atomically: true, encoding: .utf8)
        try Self.mail.write(toFile: apps + "/mail.yaml", atomically: true, encoding: .utf8)
        for file in ["passwd", "group", "apps/shop.yaml", "apps/mail.yaml"] { chmod(directory + "/" + file, 0o644) }

        let mounts = mountCommand(directory)
        // The bus looks callers up too (an unknown uid cannot even register): it runs in the test database.
        bus = try PrivateBus(extraConfiguration: "<include ignore_missing=\"yes\">\(directory)/policy.conf</include>", launcher: ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "\(mounts) && exec \"$0\" \"$@\""])
        navd = NavdProcess(bus: bus, appsDirectory: apps) { navdCommand in
            ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "\(mounts) && exec /usr/bin/setpriv --reuid 59000 --regid 59000 --init-groups \(navdCommand)"]
        }
        chmod(navd.home, 0o755)
        try navd.start()
    }

    deinit {
        navd.stop()
        bus.stop()
        TemporaryDirectory.remove(directory)
    }

    /// Runs `executable` with `arguments` as `user` (nil: root) in the test user database.
    func run(as user: String?, _ executable: String, _ arguments: [String]) throws -> CommandResult {
        let result = try ChildProcess.run("/usr/bin/unshare", launchArguments(as: user, executable, arguments), environment: bus.environment, timeout: 30)
        return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Starts `executable` with `arguments` as `user` without waiting for it.
    func start(as user: String?, _ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(launching: "/usr/bin/unshare", arguments: launchArguments(as: user, executable, arguments), environment: bus.environment)
    }

    /// Installs `policy` as the bus's extra configuration and has the bus read it again (SIGHUP).
    func usePolicy(_ policy: String) throws {
        try policy.write(toFile: directory + "/policy.conf", atomically: true, encoding: .utf8)
        kill(bus.pid, SIGHUP)
        usleep(300_000)
    }

    private func launchArguments(as user: String?, _ executable: String, _ arguments: [String]) -> [String] {
        let command = ([executable] + arguments).map(Spawn.shellQuoted).joined(separator: " ")
        let identity = user.map { name -> String in
            let uid = Self.users.first { $0.name == name }!.uid
            return "/usr/bin/setpriv --reuid \(uid) --regid \(uid) --init-groups "
        } ?? ""
        return ["-m", "/bin/sh", "-c", "\(mountCommand(directory)) && exec \(identity)\(command)"]
    }

    /// `navctl --address BUS ARGUMENTS…` as `user`.
    func navctl(as user: String?, _ arguments: String...) throws -> CommandResult {
        try run(as: user, Products.url("navctl"), ["--address", bus.address] + arguments)
    }

    /// `dbus-send --print-reply` to navd's object `path` as `user`: `member` with `arguments` (dbus-send's).
    func dbusSend(as user: String?, _ path: String, _ member: String, _ arguments: String...) throws -> CommandResult {
        try run(as: user, "/usr/bin/dbus-send", [
            "--bus=\(bus.address)", "--print-reply", "--dest=org.navd.Navigator1", path, member,
        ] + arguments)
    }
}

/// The shell words that bind-mount `directory`'s passwd and group over the system's.
private func mountCommand(_ directory: String) -> String {
    "mount --bind \(Spawn.shellQuoted(directory + "/passwd")) /etc/passwd && mount --bind \(Spawn.shellQuoted(directory + "/group")) /etc/group"
}
