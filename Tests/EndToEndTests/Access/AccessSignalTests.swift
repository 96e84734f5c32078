import DBus
import Foundation
import Testing
import TestSupport

/// What navd broadcasts about an app's access (docs/multi-user.md): the ObjectManager's
/// `InterfacesAdded` of an app with a `read` list carries only `Access`, since navd cannot tell who
/// receives it; a reload that changes an app's `access:` sends `PropertiesChanged` for `Access`.
@Suite(.serialized, .enabled(if: MultiUserNavd.available), .timeLimit(.minutes(2)))
struct AccessSignalTests {
    /// Real users, a private bus and navd, started afresh for each test.
    let fixture: MultiUserNavd

    init() throws { fixture = try MultiUserNavd() }

    @Test func interfacesAddedOfAnAppWithAReadListCarriesOnlyItsAccess() throws {
        let rule = "type='signal',interface='org.freedesktop.DBus.ObjectManager',member='InterfacesAdded'"
        let monitor = try fixture.start(as: "dave", "/usr/bin/dbus-monitor", ["--address", fixture.bus.address, rule])
        defer { monitor.stop() }
        usleep(500_000)
        let apps = fixture.navd.appsDirectory
        try "root: desk\naccess:\n  change: [alice]\n  read: []\nroutes:\n  desk: {}\n".write(toFile: apps + "/kiosk.yaml", atomically: true, encoding: .utf8)
        try "root: home\nroutes:\n  home: {}\n".write(toFile: apps + "/notes.yaml", atomically: true, encoding: .utf8)
        #expect(try fixture.navctl(as: nil, "reload").status == 0)
        #expect(monitor.waitForOutput(containing: "/org/navd/Navigator1/apps/notes", timeout: 10))
        usleep(300_000)
        let text = monitor.stdoutText
        guard let kiosk = text.range(of: "object path \"/org/navd/Navigator1/apps/kiosk\""),
              let notes = text.range(of: "object path \"/org/navd/Navigator1/apps/notes\"")
        else {
            Issue.record("no InterfacesAdded for both apps: \(text)")
            return
        }
        let kioskSignal = kiosk.lowerBound < notes.lowerBound ? text[kiosk.lowerBound..<notes.lowerBound] : text[kiosk.lowerBound...]
        let notesSignal = kiosk.lowerBound < notes.lowerBound ? text[notes.lowerBound...] : text[notes.lowerBound..<kiosk.lowerBound]
        #expect(kioskSignal.contains("\"Access\"") && !kioskSignal.contains("\"Revision\"") && !kioskSignal.contains("\"Top\""), "\(kioskSignal)")
        #expect(notesSignal.contains("\"Revision\"") && notesSignal.contains("\"Access\""), "an open app's InterfacesAdded carries everything: \(notesSignal)")
    }

    @Test func aReloadThatChangesAccessSendsPropertiesChangedForAccess() throws {
        let rule = "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
        let monitor = try fixture.start(as: nil, "/usr/bin/dbus-monitor", ["--address", fixture.bus.address, rule])
        defer { monitor.stop() }
        usleep(500_000)
        let apps = fixture.navd.appsDirectory
        // Only the access changes: bob joins the change list, group monitor no longer reads.
        let widened = MultiUserNavd.shop.replacingOccurrences(of: "change: [alice, \"@shop\"]", with: "change: [alice, bob, \"@shop\"]")
            .replacingOccurrences(of: "read: [\"@monitor\"]", with: "read: []")
        #expect(widened != MultiUserNavd.shop)
        try widened.write(toFile: apps + "/shop.yaml", atomically: true, encoding: .utf8)
        // The other app's file changes too, but not its access: its PropertiesChanged (if any) has no Access.
        try (MultiUserNavd.mail + "  drafts: {}\n").write(toFile: apps + "/mail.yaml", atomically: true, encoding: .utf8)
        #expect(try fixture.navctl(as: nil, "reload").status == 0)
        #expect(monitor.waitForOutput(containing: "\"bob\"", timeout: 10), "no PropertiesChanged with the new Access: \(monitor.stdoutText)")
        usleep(300_000)
        let text = monitor.stdoutText
        let signals = text.components(separatedBy: "signal time=").filter { $0.contains("PropertiesChanged") }
        let shop = signals.filter { $0.contains("path=/org/navd/Navigator1/apps/shop;") }
        #expect(shop.count == 1, "one PropertiesChanged from the shop: \(text)")
        if let signal = shop.first {
            #expect(signal.contains("string \"Access\""), "\(signal)")
            #expect(signal.contains("string \"alice\"") && signal.contains("string \"bob\"") && signal.contains("string \"@shop\""), "\(signal)")
            #expect(!signal.contains("\"@monitor\"") && !signal.contains("string \"Revision\""), "only Access changed: \(signal)")
        }
        #expect(!signals.contains { $0.contains("apps/mail;") && $0.contains("\"Access\"") }, "mail's access did not change: \(text)")
        // The property reads the same as the signal said.
        let read = try fixture.dbusSend(as: "bob", "/org/navd/Navigator1/apps/shop", "org.freedesktop.DBus.Properties.Get",
                                        "string:org.navd.Navigator1", "string:Access")
        #expect(read.status == 0 && read.stdout.contains("\"bob\""), "\(read.stdout)\(read.stderr)")
    }
}
