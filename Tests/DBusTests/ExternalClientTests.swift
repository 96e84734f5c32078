import DBus
import Foundation
import TestSupport
import Testing

/// Tools no one in this project wrote (busctl, dbus-send, dbus-python) talk to the test service.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
final class ExternalClientTests {
    let fixture: ServiceFixture

    init() throws { fixture = try ServiceFixture() }

    private func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func busctlCallsIntrospectsAndReadsProperties() throws {
        guard let busctl = tool("busctl") else {
            print("busctl is not installed; skipping")
            return
        }
        let address = "--address=\(fixture.bus.address)"
        let add = try fixture.run(busctl, [address, "call", testBusName, testPath.rawValue, "org.navd.Test1", "Add", "ii", "2", "40"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "i 42")

        let describe = try fixture.run(busctl, [
            address, "call", testBusName, testPath.rawValue, "org.navd.Test1", "Describe", "sa{sv}", "news-item", "1", "id", "x", "7",
        ])
        #expect(describe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ts 1 \"news-item:id\"", "\(describe.stderr)")

        let wrong = try fixture.run(busctl, [address, "call", testBusName, testPath.rawValue, "org.navd.Test1", "Add", "s", "x"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("expects arguments of type 'ii' but got 's'"), "\(wrong.stderr)")

        let introspect = try fixture.run(busctl, [address, "introspect", testBusName, testPath.rawValue])
        #expect(introspect.status == 0, "\(introspect.stderr)")
        for member in [".Add", ".Describe", ".Changed", ".Revision", ".Label", "org.freedesktop.DBus.Properties"] {
            #expect(introspect.stdout.contains(member), "busctl introspect lists \(member)")
        }

        let property = try fixture.run(busctl, [address, "get-property", testBusName, testPath.rawValue, "org.navd.Test1", "Revision"])
        #expect(property.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "t 1", "\(property.stderr)")

        let tree = try fixture.run(busctl, [address, "tree", testBusName])
        #expect(tree.stdout.contains("/org/navd/Test1/child"), "\(tree.stdout) \(tree.stderr)")
    }

    @Test func dbusSendGetsRepliesAndErrors() throws {
        guard let dbusSend = tool("dbus-send") else {
            print("dbus-send is not installed; skipping")
            return
        }
        // --bus= registers with the bus (--address= would only open a peer connection).
        let common = ["--bus=\(fixture.bus.address)", "--print-reply", "--dest=\(testBusName)", testPath.rawValue]
        let add = try fixture.run(dbusSend, common + ["org.navd.Test1.Add", "int32:20", "int32:22"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("int32 42"))

        let square = try fixture.run(dbusSend, common + ["org.navd.Test1.Square", "variant:int64:12"])
        #expect(square.stdout.contains("int64 144"), "\(square.stderr)")

        let garbage = try fixture.run(dbusSend, common + ["org.navd.Test1.Square", "variant:string:twelve"])
        #expect(garbage.status != 0)
        #expect(garbage.stderr.contains(DBusErrorName.invalidArgs), "\(garbage.stderr)")

        let unknown = try fixture.run(dbusSend, common + ["org.navd.Test1.Nope"])
        #expect(unknown.stderr.contains(DBusErrorName.unknownMethod), "\(unknown.stderr)")
        #expect(try fixture.call("Add", [.int32(1), .int32(1)]) == [.int32(2)], "the service still answers")
    }

    @Test func garbageVariantsFromDbusPythonGetErrorsNotCrashes() throws {
        let python = "/usr/bin/python3"
        let probe = try ChildProcess.run(python, ["-c", "import dbus"])
        guard probe.status == 0 else {
            print("dbus-python is not installed for /usr/bin/python3; skipping")
            return
        }
        let script = """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            obj = bus.get_object('\(testBusName)', '\(testPath.rawValue)')
            square = obj.get_dbus_method('Square', 'org.navd.Test1')
            echo = obj.get_dbus_method('Echo', 'org.navd.Test1')
            deep = dbus.Int64(3, variant_level=60)
            cases = {
                'struct': dbus.Struct((1, 'x', [dbus.Byte(1)]), signature='isay', variant_level=1),
                'dict': dbus.Dictionary({'a': dbus.Array([], signature='v')}, signature='sv', variant_level=1),
                'deep': deep,
                'double': dbus.Double(1.5, variant_level=1),
            }
            for name, value in cases.items():
                try:
                    print(name, 'ok', square(value, signature='v'))
                except dbus.DBusException as e:
                    print(name, 'error', e.get_dbus_name())
            print('echo', repr(echo(dbus.String('x', variant_level=40), signature='v')))
            try:
                print('fd', 'ok', echo(dbus.types.UnixFd(1, variant_level=1), signature='v'))
            except dbus.DBusException as e:
                print('fd', 'error', e.get_dbus_name())
            try:
                print('wrong', obj.get_dbus_method('Add', 'org.navd.Test1')(dbus.Double(1.0), dbus.Double(2.0), signature='dd'))
            except dbus.DBusException as e:
                print('wrong', 'error', e.get_dbus_name())
            """
        let result = try ChildProcess.run(python, ["-c", script, fixture.bus.address], timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for name in ["struct", "dict", "deep", "double"] {
            #expect(lines.contains("\(name) error \(DBusErrorName.invalidArgs)"), "\(name): \(result.stdout) \(result.stderr)")
        }
        #expect(lines.contains("wrong error \(DBusErrorName.invalidArgs)"))
        #expect(lines.contains("fd error \(DBusErrorName.notSupported)"), "a unix fd is refused clearly: \(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("echo dbus.String('x', variant_level=40)") }, "\(result.stdout)")
        #expect(try fixture.call("Add", [.int32(1), .int32(1)]) == [.int32(2)], "the service still answers")
    }
}
