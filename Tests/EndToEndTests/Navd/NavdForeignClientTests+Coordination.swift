import DBus
import Foundation
import NavigatorProtocol
import Testing
import TestSupport

/// busctl and dbus-python — clients nobody here wrote — drive the coordination methods, read
/// Facts and see every new error by name with its message.
extension NavdForeignClientTests {
    /// `busctl call` of navd's `member`; stdout trimmed.
    private func busctl(_ member: String, _ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
        let out = try run("/usr/bin/busctl", ["--address=\(bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue,
                                              Navigator.interfaceName, member] + arguments)
        return (out.status, out.stdout.trimmingCharacters(in: .whitespacesAndNewlines), out.stderr)
    }

    @Test func busctlDrivesEventsFlowsFactsAndResolve() throws {
        #expect(try busctl("Send", "ssa{sv}t", "", "next", "0", "0").stdout == "ts 2 \"applied\"")
        #expect(try busctl("GetEvents", "s", "").stdout == "a(ss) 4 \"next\" \"route\" \"root\" \"tab\" \"end\" \"tab\" \"show-modal\" \"tab\"")
        #expect(try busctl("SelectTab", "s", "profile").stdout == "t 3")
        let resolve = try busctl("Resolve", "ssa{sv}", "event", "account", "0")
        #expect(resolve.stdout.hasPrefix("stsa(sssa{sv})as \"redirected\" 4 \"profile\" 2 "), "\(resolve)")
        #expect(resolve.stdout.contains("\"login\" \"cover\""))
        #expect(try busctl("Send", "ssa{sv}t", "", "account", "0", "0").stdout == "ts 4 \"redirected\"")
        let flows = try busctl("GetFlows")
        #expect(flows.stdout.hasPrefix("a(sssa{sv}) 1 \"#") && flows.stdout.contains("\"auth\""), "\(flows)")
        #expect(try busctl("Finish", "sa{sv}", "cancelled", "0").stdout == "t 5")
        let started = try busctl("Start", "sa{sv}", "auth", "0")
        #expect(started.stdout.hasPrefix("ts 6 \"#"), "\(started)")
        #expect(try busctl("SetFacts", "a{sv}", "1", "signed-in", "b", "true").stdout == "t 7")
        let facts = try run("/usr/bin/busctl", ["--address=\(bus.address)", "get-property", Navigator.busName,
                                                Navigator.objectPath.rawValue, Navigator.interfaceName, "Facts"])
        #expect(facts.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a{sv} 1 \"signed-in\" b true")
        let introspect = try run("/usr/bin/busctl", ["--address=\(bus.address)", "introspect", Navigator.busName, Navigator.objectPath.rawValue])
        for member in ["Send", "Start", "Finish", "SetFacts", "GetFlows", "GetEvents", "Resolve", "FlowFinished", "Facts"] {
            #expect(introspect.stdout.contains(".\(member) "), "busctl introspect does not list \(member)")
        }
    }

    @Test func busctlSeesEachNewErrorWithItsMessage() throws {
        // busctl prints the message only; dbus-python below checks the names.
        let cases: [(String, [String], String)] = [
            ("Send", ["ssa{sv}t", "", "fly", "0", "0"], "no handler for event 'fly'"),
            ("Send", ["ssa{sv}t", "#99", "next", "0", "0"], "screen '#99' is not on the path"),
            ("Start", ["sa{sv}", "nope", "0"], "no flow 'nope'"),
            ("Finish", ["sa{sv}", "done", "0"], "no flow encloses the top screen"),
            ("SetFacts", ["a{sv}", "1", "nope", "b", "true"], "no fact 'nope'"),
            ("GetEvents", ["s", "#99"], "screen '#99' is not on the path"),
            ("Resolve", ["ssa{sv}", "bogus", "x", "0"], "not 'bogus'"),
        ]
        for (member, arguments, message) in cases {
            let out = try run("/usr/bin/busctl", ["--address=\(bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue,
                                                  Navigator.interfaceName, member] + arguments)
            #expect(out.status != 0, "\(member) \(arguments) succeeded")
            #expect(out.stderr.contains(message), "\(member): \(out.stderr)")
        }
        #expect(try busctl("SelectTab", "s", "profile").stdout == "t 2")
        _ = try busctl("Start", "sa{sv}", "auth", "0")
        let output = try busctl("Finish", "sa{sv}", "done", "0")
        #expect(output.stderr.contains("flow 'auth' has no output 'done'; its outputs: signed-in, cancelled"), "\(output)")
        let loop = try busctl("Push", "sa{sv}", "account", "0")
        #expect(loop.stderr.contains("already encloses the top screen"), "\(loop)")
    }

    @Test func dbusPythonDrivesTheCoordinationMethodsAndSeesTheErrorNames() throws {
        let python = try pythonWithDBus()
        let script = """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            obj = bus.get_object('\(Navigator.busName)', '\(Navigator.objectPath)')
            nav = dbus.Interface(obj, '\(Navigator.interfaceName)')
            props = dbus.Interface(obj, 'org.freedesktop.DBus.Properties')
            def refused(call):
                try:
                    call()
                    print('no error')
                except dbus.exceptions.DBusException as e:
                    print('error', e.get_dbus_name().rsplit('.', 1)[1])
            nav.SelectTab('profile')
            rev, outcome = nav.Send('', 'account', {}, dbus.UInt64(0))
            print('send', int(rev), str(outcome))
            print('flows', [(str(f[1]), len(f[3])) for f in nav.GetFlows()])
            print('events', [(str(e), str(s)) for e, s in nav.GetEvents('')])
            outcome, rev, tab, path, trace = nav.Resolve('event', 'succeeded', {})
            print('resolve', str(outcome), int(rev), [str(e[1]) for e in path], len(trace) > 0)
            rev, outcome = nav.Send('', 'succeeded', {}, dbus.UInt64(rev - 1))
            print('resumed', int(rev), str(outcome))
            print('facts', dict((str(k), bool(v)) for k, v in props.Get('\(Navigator.interfaceName)', 'Facts').items()))
            rev, flow_id = nav.Start('auth', {})
            print('start', int(rev), str(flow_id).startswith('#'))
            print('finish', int(nav.Finish('cancelled', {})))
            print('setfacts', int(nav.SetFacts({'signed-in': False})))
            refused(lambda: nav.Send('', 'fly', {}, dbus.UInt64(0)))
            refused(lambda: nav.Send('#99', 'logout', {}, dbus.UInt64(0)))
            refused(lambda: nav.Start('nope', {}))
            refused(lambda: nav.Finish('cancelled', {}))
            refused(lambda: nav.SetFacts({'nope': True}))
            refused(lambda: nav.GetEvents('#99'))
            nav.Start('auth', {})
            refused(lambda: nav.Finish('done', {}))
            refused(lambda: nav.Push('account', {}))
            refused(lambda: nav.Resolve('bogus', '', {}))
            """
        let out = try run(python, ["-c", script, bus.address])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.split(separator: "\n").map(String.init) == [
            "send 3 redirected",
            "flows [('auth', 0)]",
            "events [('forgot-password', 'route'), ('succeeded', 'route'), ('cancel', 'route')]",
            "resolve resumed 4 ['profile', 'account'] True",
            "resumed 4 resumed",
            "facts {'signed-in': True}",
            "start 5 True",
            "finish 6",
            "setfacts 7",
            "error UnhandledEvent",
            "error StaleSource",
            "error UnknownFlow",
            "error NotInFlow",
            "error UnknownFact",
            "error StaleSource",
            "error UnknownOutput",
            "error GuardLoop",
            "error InvalidArgs",
        ])
    }
}
