@testable import DBus
import NavigatorProtocol
import Navigation
import TestSupport
import Testing
@testable import NavdService

/// navd writes `StackChanged` and `PropertiesChanged` straight from its state; they are byte for
/// byte what the same values marshal to through `ObjectServer` (the serial aside).
@Suite(.timeLimit(.minutes(2)), .enabled(if: PrivateBus.isAvailable))
struct SignalBytesTests {
    static func unnumbered(_ message: MarshalledMessage?) -> [UInt8]? {
        guard var bytes = message?.bytes else { return nil }
        bytes.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        return bytes
    }

    @Test func everyPropertyAndTheStackAreWrittenAsTheirValuesMarshal() throws {
        let navd = try InProcessDaemon("signal-bytes")
        defer { navd.stop() }
        let daemon = navd.daemon
        let main = daemon.main
        _ = try daemon.perform(main, .push(route: "orange", params: [:]))
        var every = PendingProperties()
        for property in NavigatorProperty.allCases { every.insert(property) }
        #expect(every.members == NavigatorProperty.allCases)

        let written = daemon.propertiesChangedSignal(main, every)
        let marshalled = try daemon.server.marshalledPropertiesChanged(
            main.path, interface: Navigator.interfaceName,
            changed: NavigatorProperty.allCases.map { ($0.name, main.coordinator.value(of: $0)) })
        #expect(Self.unnumbered(written) == Self.unnumbered(marshalled))

        let coordinator = main.coordinator
        let stack = daemon.stackChangedSignal(
            main, revision: coordinator.revision, cause: "push", tab: coordinator.selectedTab, path: coordinator.path)
        let stackMarshalled = try daemon.server.marshalledSignal(
            main.path, interface: Navigator.interfaceName, name: Navigator.stackChanged.name,
            [.uint64(coordinator.revision), .string("push"), .string(coordinator.selectedTab), coordinator.path.dbusValue])
        #expect(Self.unnumbered(stack) == Self.unnumbered(stackMarshalled))
    }
}
