import DBus
import NavigatorProtocol
import NavdClient
import Testing

@Suite("Error kinds")
struct NavigatorErrorTests {
    @Test("navd's refusals and standard call errors are remote; transport failures are unreachable",
          .timeLimit(.minutes(1)))
    func sorting() {
        let refusal = NavigatorError(
            callError: DBusError(name: NavigatorErrorName(.atRoot).fullName, message: "nothing to pop"), bus: "session bus")
        #expect(refusal == .remote(name: NavigatorErrorName(.atRoot).fullName, message: "nothing to pop"))
        #expect(refusal.shortName == "AtRoot")
        #expect(refusal.description == "nothing to pop [\(NavigatorErrorName(.atRoot).fullName)]")
        let wrongSignature = NavigatorError(
            callError: DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "bad"), bus: "b")
        #expect(wrongSignature == .remote(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "bad"))
        for name in ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NoReply",
                     "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.Spawn.ChildExited"] {
            #expect(NavigatorError(callError: DBusError(name: name, message: "m"), bus: "system bus")
                == .unreachable(bus: "system bus", reason: "m"), "\(name)")
        }
    }

    @Test("a refusal carries navd's typed error name; the bus' own errors and transport failures carry none",
          .timeLimit(.minutes(1)))
    func typedNames() {
        let refusal = NavigatorError(
            callError: DBusError(name: "org.navd.Navigator1.Error.AtRoot", message: "nothing to pop"), bus: "b")
        #expect(refusal.errorName == NavigatorErrorName(.atRoot))
        #expect(refusal.isRefusal(.atRoot) && !refusal.isRefusal(.noModal))
        let storage = NavigatorError(callError: DBusError(name: "org.navd.Navigator1.Error.StorageFailed", message: ""), bus: "b")
        #expect(storage.errorName == .storageFailed)
        let wrongSignature = NavigatorError(callError: DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: ""), bus: "b")
        #expect(wrongSignature.errorName == nil)
        let unknown = NavigatorError(callError: DBusError(name: "org.navd.Navigator1.Error.NoSuchName", message: ""), bus: "b")
        #expect(unknown.errorName == nil && unknown.shortName == "org.navd.Navigator1.Error.NoSuchName")
        #expect(NavigatorError.unreachable(bus: "b", reason: "gone").errorName == nil)
    }
}
