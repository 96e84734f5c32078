import DBus
import Foundation
import Testing
import TestSupport

/// What the ObjectManager broadcasts of an app with a `read` list (docs/multi-user.md): its
/// `InterfacesAdded` carries only `Access`, since navd cannot tell who receives it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct AccessSignalTests {
    @Test func interfacesAddedOfAnAppWithAReadListCarriesOnlyItsAccess() throws {
        guard MultiUserNavd.available else { return }
        let fixture = try MultiUserNavd()
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
}
