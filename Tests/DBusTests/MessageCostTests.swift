import DBus
import Testing

/// Prints what building and reading navd-shaped messages costs (ns per operation) so that a
/// change in the DBus layer's overhead shows up in the test log. Timings are printed, never
/// asserted; what is asserted is that every shape is built and read back correctly.
/// For figures worth comparing, run in release: `swift test -c release --filter MessageCost`.
@Suite(.timeLimit(.minutes(1))) struct MessageCostTests {
    static let iterations = 2_000
    static let path: ObjectPath = "/org/example/Navigator1"
    static let interface = "org.example.Navigator1"

    static func entry(_ i: Int) -> DBusValue {
        .structure([.string("id-\(i)"), .string("route\(i)"), .string("push"), .vardict([("k", .int64(Int64(i)))])])
    }

    // Computed, not stored: LeakSanitizer cannot follow tagged enum payloads held in globals.
    static var stackChanged: [DBusValue] { [
        .uint64(7), .string("push"), .string("main"), .array(element: "(sssa{sv})", [entry(0), entry(1), entry(2)]),
    ] }

    static func server() -> ObjectServer {
        let server = ObjectServer()
        let declaration = InterfaceDeclaration(
            name: interface,
            signals: [
                SignalDeclaration("StackChanged", [
                    ArgumentDeclaration("revision", "t"), ArgumentDeclaration("cause", "s"),
                    ArgumentDeclaration("tab", "s"), ArgumentDeclaration("path", "a(sssa{sv})"),
                ])
            ],
            properties: [PropertyDeclaration("Revision", "t"), PropertyDeclaration("CanUndo", "b"), PropertyDeclaration("CanRedo", "b")])
        server.export(path, interface: declaration, implementation: InterfaceImplementation())
        return server
    }

    static func pushCall() throws -> Message {
        let call = try Message.methodCall(destination: interface, path: path.rawValue, interface: interface, member: "Push")
        try call.append([.string("orange"), .vardict([("color", .string("red"))])])
        return call
    }

    /// Runs `body` `iterations` times after a short warm-up and prints ns per run.
    static func measure(_ name: String, _ body: () throws -> Void) rethrows {
        for _ in 0..<(iterations / 10) { try body() }
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { try body() }
        let elapsed = clock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        print("MessageCost \(name): \(Int(nanoseconds / Double(iterations))) ns/op")
    }

    @Test func pushCallsAreBuiltAndRead() throws {
        try Self.measure("methodCall+append Push") { _ = try Self.pushCall() }
        let call = try Self.pushCall()
        #expect(call.signature == "sa{sv}")
        let expected: [DBusValue] = [.string("orange"), .vardict([("color", .string("red"))])]
        try Self.measure("body() of Push") { _ = try call.body() }
        #expect(try call.body() == expected)
    }

    @Test func stackChangedSignalsAreBuilt() throws {
        let server = Self.server()
        try Self.measure("StackChanged via ObjectServer.signal") {
            _ = try server.signal(Self.path, interface: Self.interface, name: "StackChanged", Self.stackChanged)
        }
        let signal = try server.signal(Self.path, interface: Self.interface, name: "StackChanged", Self.stackChanged)
        #expect(try signal.body() == Self.stackChanged)
    }

    @Test func propertiesChangedSignalsAreBuilt() throws {
        let server = Self.server()
        let changed: [(String, DBusValue)] = [("Revision", .uint64(7)), ("CanUndo", .boolean(true)), ("CanRedo", .boolean(false))]
        try Self.measure("PropertiesChanged") {
            _ = try server.propertiesChanged(Self.path, interface: Self.interface, changed: changed)
        }
        let signal = try server.propertiesChanged(Self.path, interface: Self.interface, changed: changed)
        #expect(try signal.body() == [.string(Self.interface), .vardict(changed), .stringArray([])])
    }
}
