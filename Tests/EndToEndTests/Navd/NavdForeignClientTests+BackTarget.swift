import DBus
import NavdClient
import Testing
import TestSupport

/// busctl, gdbus and the Swift client's `GetAll` read `BackTarget`.
extension NavdForeignClientTests {
    /// `busctl get-property` of navd's `BackTarget`.
    private func busctlBackTarget() throws -> (status: Int32, stdout: String, stderr: String) {
        try run("/usr/bin/busctl", ["--address=\(bus.address)", "get-property", Navigator.busName, Navigator.objectPath.rawValue,
                                    Navigator.interfaceName, NavigatorProperty.backTarget.name])
    }

    @Test func busctlGdbusAndTheClientReadBackTarget() throws {
        let push = try run("/usr/bin/busctl", ["--address=\(bus.address)", "call", Navigator.busName, Navigator.objectPath.rawValue,
                                               Navigator.interfaceName, "Push", "sa{sv}", "orange", "0"])
        #expect(push.status == 0, "\(push.stderr)")
        let busctl = try busctlBackTarget()
        #expect(busctl.stdout == "(sss) \"#2\" \"red\" \"root\"\n", "\(busctl.stderr)")
        let gdbus = try run("/usr/bin/gdbus", [
            "call", "--address", bus.address, "--dest", Navigator.busName, "--object-path", Navigator.objectPath.rawValue,
            "--method", "org.freedesktop.DBus.Properties.Get", Navigator.interfaceName, NavigatorProperty.backTarget.name,
        ])
        #expect(gdbus.stdout == "(<('#2', 'red', 'root')>,)\n", "\(gdbus.stderr)")
        let navigator = try NavigatorClient(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        #expect(try navigator.send(.properties).backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
        _ = try navigator.send(.pop)
        #expect(try navigator.send(.properties).backTarget == nil)
        let empty = try busctlBackTarget()
        #expect(empty.stdout == "(sss) \"\" \"\" \"\"\n", "\(empty.stderr)")
    }
}
