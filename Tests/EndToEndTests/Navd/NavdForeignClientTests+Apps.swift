import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// busctl and dbus-python find the apps through the ObjectManager, drive an app's object, and
/// see apps appear and go.
extension NavdForeignClientTests {
    @Test func busctlListsTheAppsAndDrivesOne() throws {
        let navd = try NavdWithApps()
        let address = "--address=\(navd.bus.address)"
        let managed = try run("/usr/bin/busctl", [
            address, "--json=short", "call", Navigator.busName, Navigator.objectPath.rawValue,
            StandardInterfaces.objectManager.name, "GetManagedObjects",
        ])
        #expect(managed.status == 0, "\(managed.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(managed.stdout.utf8)) as? [String: Any]
        let objects = ((json?["data"] as? [Any])?.first as? [String: Any]) ?? [:]
        #expect(objects.keys.sorted() == [NavdWithApps.path("mail"), NavdWithApps.path("shop")], "\(managed.stdout)")
        let shop = objects[NavdWithApps.path("shop")] as? [String: Any]
        #expect(shop?.keys.sorted() == [Navigator.interfaceName], "only the navigator interface: \(managed.stdout)")
        let properties = shop?[Navigator.interfaceName] as? [String: Any]
        #expect((properties?["Top"] as? [String: Any])?["data"] as? String == "catalog", "\(managed.stdout)")

        let call = [address, "call", Navigator.busName, NavdWithApps.path("shop"), Navigator.interfaceName]
        let push = try run("/usr/bin/busctl", call + ["Push", "sa{sv}", "product", "1", "sku", "x", "7"])
        #expect(push.stdout.hasPrefix("ts 2 \""), "\(push)")
        let reload = try run("/usr/bin/busctl", call + ["Reload"])
        #expect(reload.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "t 2", "\(reload)")
        let revision = try run("/usr/bin/busctl", [address, "get-property", Navigator.busName, NavdWithApps.path("mail"),
                                                   Navigator.interfaceName, "Revision"])
        #expect(revision.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "t 1", "mail is untouched: \(revision)")
        let unknown = try run("/usr/bin/busctl", [address, "call", Navigator.busName, NavdWithApps.path("nope"),
                                                  Navigator.interfaceName, "GetState"])
        #expect(unknown.status != 0 && unknown.stderr.contains("mail") && unknown.stderr.contains("shop"), "\(unknown)")
        let tree = try run("/usr/bin/busctl", [address, "tree", Navigator.busName])
        #expect(tree.stdout.contains(NavdWithApps.path("shop")) && tree.stdout.contains(NavdWithApps.path("mail")), "\(tree.stdout)")
    }

    @Test func busctlMonitorSeesAppsAppearAndGo() throws {
        let navd = try NavdWithApps()
        let monitor = try ChildProcess(
            launching: "/usr/bin/busctl",
            arguments: ["--address=\(navd.bus.address)", "monitor", "--json=short",
                        "--match=type='signal',sender='\(Navigator.busName)'"])
        defer { _ = monitor.stop() }
        let client = try navd.connect()
        // The monitor is in place once it has seen a signal sent after it started.
        var ready = false
        for sku in 1...200 where !ready {
            try client.push("product", [("sku", .int64(Int64(sku)))], at: NavdWithApps.path("shop"))
            ready = monitor.stdoutText.contains("StackChanged")
            if !ready { usleep(50_000) }
        }
        #expect(ready, "busctl monitor saw nothing: \(monitor.stderrText)")

        try navd.write("notes", AppRouteFiles.notes)
        try client.reload()
        try navd.removeFile("notes")
        try client.reload()
        try client.push("checkout", at: NavdWithApps.path("shop"))
        // The last push's StackChanged comes after both announcements.
        var lines: [String] = []
        for _ in 0..<200 {
            lines = monitor.stdoutText.split(separator: "\n").map(String.init)
            if lines.contains(where: { $0.contains("\"checkout\"") }) { break }
            usleep(50_000)
        }
        let announcements = lines.filter { $0.contains("\"member\":\"Interfaces") }
        #expect(announcements.count == 2, "\(lines.suffix(6))")
        #expect(announcements.first?.contains("InterfacesAdded") == true && announcements.first?.contains(NavdWithApps.path("notes")) == true)
        #expect(announcements.last?.contains("InterfacesRemoved") == true && announcements.last?.contains(NavdWithApps.path("notes")) == true)
        let start = lines.first { $0.contains("StackChanged") && $0.contains(NavdWithApps.path("notes")) }
        #expect(start?.contains("\"start\"") == true, "the new app announces its start from its path: \(start ?? "none")")
    }

    @Test func dbusPythonFindsTheAppsAndSeesThemComeAndGo() throws {
        let python = try pythonWithDBus()
        let navd = try NavdWithApps()
        let script = """
            import dbus, dbus.mainloop.glib, os, sys
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(sys.argv[1])
            folder = sys.argv[2]
            root = bus.get_object('\(Navigator.busName)', '\(Navigator.objectPath)')
            manager = dbus.Interface(root, 'org.freedesktop.DBus.ObjectManager')
            for path, interfaces in sorted(manager.GetManagedObjects().items()):
                props = interfaces['\(Navigator.interfaceName)']
                print('managed', str(path), sorted(str(i) for i in interfaces), int(props['Revision']), str(props['Top']))
            shop = dbus.Interface(bus.get_object('\(Navigator.busName)', str(path).rsplit('/', 1)[0] + '/shop'), '\(Navigator.interfaceName)')
            rev, sid = shop.Push('product', {'sku': dbus.Int64(5)})
            print('shop push', int(rev))
            try:
                bus.get_object('\(Navigator.busName)', '\(Navigator.appsPath)/nope').GetState(dbus_interface='\(Navigator.interfaceName)')
            except dbus.exceptions.DBusException as e:
                print('unknown', e.get_dbus_name(), 'mail' in e.get_dbus_message() and 'shop' in e.get_dbus_message())
            events = []
            loop = GLib.MainLoop()
            def added(path, interfaces):
                events.append(('added', str(path), sorted(str(i) for i in interfaces)))
                loop.quit()
            def removed(path, interfaces):
                events.append(('removed', str(path), [str(i) for i in interfaces]))
                loop.quit()
            manager.connect_to_signal('InterfacesAdded', added)
            manager.connect_to_signal('InterfacesRemoved', removed)
            GLib.timeout_add_seconds(10, loop.quit)
            nav = dbus.Interface(root, '\(Navigator.interfaceName)')
            with open(os.path.join(folder, 'notes.yaml'), 'w') as f:
                f.write(sys.argv[3])
            print('reload', int(nav.Reload()))
            loop.run()
            notes = dbus.Interface(bus.get_object('\(Navigator.busName)', '\(Navigator.appsPath)/notes'), '\(Navigator.interfaceName)')
            print('notes push', int(notes.Push('note', {'n': dbus.Int64(1)})[0]))
            os.remove(os.path.join(folder, 'notes.yaml'))
            nav.Reload()
            loop.run()
            for event in events:
                print(*event)
            """
        let out = try run(python, ["-c", script, navd.bus.address, navd.appsDirectory, AppRouteFiles.notes])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.split(separator: "\n").map(String.init) == [
            "managed \(NavdWithApps.path("mail")) ['\(Navigator.interfaceName)'] 1 inbox",
            "managed \(NavdWithApps.path("shop")) ['\(Navigator.interfaceName)'] 1 catalog",
            "shop push 2",
            "unknown \(DBusErrorName.unknownObject) True",
            "reload 1",
            "notes push 2",
            "added \(NavdWithApps.path("notes")) ['\(Navigator.interfaceName)']",
            "removed \(NavdWithApps.path("notes")) ['\(Navigator.interfaceName)']",
        ])
    }
}
