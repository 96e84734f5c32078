import DBus
import Foundation
import TestSupport

/// The interface the test service exports, declared once.
let testInterface = InterfaceDeclaration(
    name: "org.navd.Test1",
    methods: [
        MethodDeclaration(
            "Add", in: [ArgumentDeclaration("left", "i"), ArgumentDeclaration("right", "i")],
            out: [ArgumentDeclaration("sum", "i")], documentation: "Adds two numbers -- carefully."),
        MethodDeclaration("Echo", in: [ArgumentDeclaration("value", "v")], out: [ArgumentDeclaration("same", "v")]),
        MethodDeclaration(
            "Square", in: [ArgumentDeclaration("number", "v")], out: [ArgumentDeclaration("square", "x")]),
        MethodDeclaration(
            "Describe", in: [ArgumentDeclaration("route", "s"), ArgumentDeclaration("params", "a{sv}")],
            out: [ArgumentDeclaration("revision", "t"), ArgumentDeclaration("summary", "s")]),
        MethodDeclaration("Refuse"),
        MethodDeclaration("Crash"),
        MethodDeclaration("Misbehave", out: [ArgumentDeclaration("number", "t")]),
        MethodDeclaration("Garble", out: [ArgumentDeclaration("text", "s")]),
        MethodDeclaration("Note", in: [ArgumentDeclaration("text", "s")], annotations: ["org.freedesktop.DBus.Method.NoReply": "true"]),
    ],
    signals: [SignalDeclaration("Changed", [ArgumentDeclaration("revision", "t"), ArgumentDeclaration("cause", "s")])],
    properties: [
        PropertyDeclaration("Revision", "t"),
        PropertyDeclaration("Label", "s", access: .readWrite),
        PropertyDeclaration("Tags", "as", emitsChangedSignal: false),
    ])

let testPath: ObjectPath = "/org/navd/Test1"
let testBusName = "org.navd.Test1"

struct Refusal: Error, CustomStringConvertible {
    var description: String { "the handler gave up" }
}

/// The test service's state and handlers; lives on the service loop's thread.
final class TestServiceState: @unchecked Sendable {
    var label = "initial"
    var notes: [String] = []
    var revision: UInt64 = 1

    func implementation() -> InterfaceImplementation {
        InterfaceImplementation(
            methods: [
                "Add": { call in
                    [.int32(call.arguments[0].int32Value! &+ call.arguments[1].int32Value!)]
                },
                "Echo": { call in call.arguments },
                "Square": { call in
                    guard let number = call.arguments[0].variantValue?.int64Value else {
                        throw DBusError.invalidArgs("Square needs an integer, got '\(call.arguments[0].variantValue?.signature.rawValue ?? "?")'")
                    }
                    return [.int64(number &* number)]
                },
                "Describe": { [self] call in
                    let keys = call.arguments[1].stringKeyedPairs?.map(\.0).joined(separator: ",") ?? ""
                    return [.uint64(revision), .string("\(call.arguments[0].stringValue!):\(keys)")]
                },
                "Refuse": { _ in throw DBusError(name: "org.navd.Test1.Error.Refused", message: "not today") },
                "Crash": { _ in throw Refusal() },
                "Misbehave": { _ in [.string("not a number")] },
                "Garble": { _ in [.string("nul\u{0}inside")] },
                "Note": { [self] call in
                    notes.append(call.arguments[0].stringValue!)
                    return []
                },
            ],
            getProperty: { [self] name in
                switch name {
                case "Revision": .uint64(revision)
                case "Label": .string(label)
                case "Tags": .stringArray(["a", "b"])
                default: nil
                }
            },
            setProperty: { [self] name, value throws(DBusError) in
                guard name == "Label", let text = value.stringValue else { throw .failed("cannot set \(name)") }
                label = text
            })
    }
}

/// A private bus, the test service on its own loop thread owning `testBusName`, and a
/// client connection.
final class ServiceFixture {
    let bus: PrivateBus
    let loop: ServiceLoop
    let state = TestServiceState()
    let client: Connection

    init() throws {
        bus = try PrivateBus()
        let serviceConnection = try Connection(.address(bus.address))
        try serviceConnection.requestName(testBusName)
        let server = ObjectServer()
        server.export(testPath, interface: testInterface, implementation: state.implementation())
        server.export("/org/navd/Test1/child", interface: testInterface, implementation: state.implementation())
        loop = ServiceLoop(connection: serviceConnection, server: server)
        loop.start()
        client = try Connection(.address(bus.address))
    }

    deinit {
        loop.stop()
        bus.stop()
    }

    /// Calls `member` on the test object and returns the reply's body.
    func call(
        _ member: String, _ values: [DBusValue] = [], interface: String? = "org.navd.Test1",
        path: String = testPath.rawValue
    ) throws -> [DBusValue] {
        let message = try Message.methodCall(destination: testBusName, path: path, interface: interface, member: member)
        try message.append(values)
        return try client.call(message, timeoutMilliseconds: 5_000).body()
    }

    /// The error `member` answers with; nil if it succeeded.
    func error(
        _ member: String, _ values: [DBusValue] = [], interface: String? = "org.navd.Test1",
        path: String = testPath.rawValue
    ) -> DBusError? {
        do {
            _ = try call(member, values, interface: interface, path: path)
            return nil
        } catch let error as DBusError {
            return error
        } catch {
            return DBusError(name: "unexpected", message: "\(error)")
        }
    }

    /// Runs a command-line tool against the bus and returns its output; throws on failure.
    func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(tool, arguments, timeout: 20)
    }
}
