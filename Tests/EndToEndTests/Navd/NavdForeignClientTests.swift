import DBus
import NavigatorProtocol
import Foundation
import Testing
import TestSupport
import TestFixtures

/// Clients nobody here wrote — busctl, gdbus, dbus-python — against the real navd, and the
/// checked-in interface XML against what navd serves.
@Suite("navd with foreign clients", .timeLimit(.minutes(2)))
struct NavdForeignClientTests {
    /// The bus and navd, stopped when the test's instance is released.
    let fixture: NavdOnPrivateBus
    var bus: PrivateBus { fixture.bus }

    init() throws {
        fixture = try NavdOnPrivateBus()
    }

    /// `/usr/bin/python3` when it can `import dbus`; otherwise the test is cancelled, saying what to install.
    func pythonWithDBus() throws -> String {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? run(python, ["-c", "import dbus"]).status) == 0 else {
            try Test.cancel("dbus-python is not installed for /usr/bin/python3 (apt-get install python3-dbus)")
        }
        return python
    }

    /// Runs `tool` to completion (20 s at most).
    func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(tool, arguments, timeout: 20)
    }

    @Test func busctlCallsGetsPropertiesAndIntrospects() throws {
        let call = ["--address=\(bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue, Navigator.interfaceName]
        let push = try run("/usr/bin/busctl", call + ["Push", "sa{sv}", "orange", "0"])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stdout.hasPrefix("ts 2 \""))
        let item = try run("/usr/bin/busctl", call + ["Push", "sa{sv}", "news-item", "1", "id", "x", "7"])
        #expect(item.stdout.hasPrefix("ts 3 \""), "\(item.stderr)")
        let refused = try run("/usr/bin/busctl", call + ["Push", "sa{sv}", "news-item", "0"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("route 'news-item' needs param 'id' (int)"), "\(refused.stderr)")
        let revision = try run("/usr/bin/busctl", ["--address=\(bus.address)", "get-property", Navigator.busName,
                                                   Navigator.objectPath.rawValue, Navigator.interfaceName, "Revision"])
        #expect(revision.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "t 3")
        let introspect = try run("/usr/bin/busctl", ["--address=\(bus.address)", "introspect", Navigator.busName, Navigator.objectPath.rawValue])
        for member in ["Push", "Pop", "PopTo", "PopToRoot", "Replace", "SetStack", "Present", "Dismiss", "DismissAll", "Back",
                       "SelectTab", "Open", "Apply", "Undo", "Redo", "GetState", "GetTree", "GetRoutes", "History",
                       "StackChanged", "Revision", "Depth", "Top", "TopId", "SelectedTab", "Tabs", "CanUndo", "CanRedo", "States", "Version"] {
            #expect(introspect.stdout.contains(".\(member) "), "busctl introspect does not list \(member)")
        }
        let tree = try run("/usr/bin/busctl", ["--address=\(bus.address)", "tree", Navigator.busName])
        #expect(tree.stdout.contains(Navigator.objectPath.rawValue))
    }

    @Test func gdbusCallsAndErrors() throws {
        let base = ["call", "--address", bus.address, "--dest", Navigator.busName, "--object-path", Navigator.objectPath.rawValue, "--method"]
        let push = try run("/usr/bin/gdbus", base + ["\(Navigator.interfaceName).Push", "yellow", "{}"])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.stdout.hasPrefix("(uint64 2, '"))
        let tab = try run("/usr/bin/gdbus", base + ["\(Navigator.interfaceName).SelectTab", "nowhere"])
        #expect(tab.status != 0)
        #expect(tab.stderr.contains(NavigatorErrorName(.unknownTab).fullName), "\(tab.stderr)")
        let state = try run("/usr/bin/gdbus", base + ["\(Navigator.interfaceName).GetState"])
        #expect(state.stdout.contains("'yellow', 'push'"), "\(state.stdout)")
    }

    @Test func dbusPythonDrivesTheContract() throws {
        let python = try pythonWithDBus()
        let script = """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            nav = dbus.Interface(bus.get_object('\(Navigator.busName)', '\(Navigator.objectPath)'), '\(Navigator.interfaceName)')
            rev, sid = nav.Push('news-item', {'id': dbus.Int32(42)})
            print('push', int(rev), str(sid))
            rev, tab, path = nav.GetState()
            print('state', int(rev), str(tab), [str(e[1]) for e in path], int(path[-1][3]['id']))
            try:
                nav.Push('nope', {})
            except dbus.exceptions.DBusException as e:
                print('error', e.get_dbus_name())
            props = dbus.Interface(bus.get_object('\(Navigator.busName)', '\(Navigator.objectPath)'), 'org.freedesktop.DBus.Properties')
            print('depth', int(props.Get('\(Navigator.interfaceName)', 'Depth')))
            print('tabs', [str(t) for t in props.Get('\(Navigator.interfaceName)', 'Tabs')])
            """
        let out = try run(python, ["-c", script, bus.address])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first?.hasPrefix("push 2 ") == true)
        #expect(lines.dropFirst().first == "state 2 rainbow ['red', 'news-item'] 42")
        #expect(lines.contains("error \(NavigatorErrorName(.unknownRoute).fullName)"))
        #expect(lines.contains("depth 2"))
        #expect(lines.contains("tabs ['rainbow', 'news', 'profile']"))
    }

    @Test func theCheckedInXMLIsWhatNavdServes() throws {
        let repository = URL(fileURLWithPath: Fixture.repository)
        let file = try String(contentsOf: repository.appendingPathComponent("dbus/\(Navigator.interfaceName).xml"), encoding: .utf8)
        let client = try Connection(.address(bus.address))
        let message = try Message.methodCall(
            destination: Navigator.busName, path: Navigator.objectPath.rawValue,
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        let served = try client.call(message).body().first?.stringValue ?? ""
        #expect(served == file, "dbus/\(Navigator.interfaceName).xml differs from what navd serves; regenerate it with `navd --print-introspection > dbus/\(Navigator.interfaceName).xml`")
        let printed = try run(Products.url("navd"), ["--print-introspection"])
        #expect(printed.stdout == file)
    }
}
