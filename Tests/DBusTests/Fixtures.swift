import DBus
import Foundation
import TestSupport
import Testing

/// Why bus tests may be skipped here.
let busUnavailableReason: Comment = "dbus-daemon is not installed; bus tests are skipped"

/// Two connections of this process on a fresh private bus.
struct TwoPeers {
    let bus: PrivateBus
    let sender: Connection
    let receiver: Connection

    init() throws {
        bus = try PrivateBus()
        sender = try Connection(.address(bus.address))
        receiver = try Connection(.address(bus.address))
    }

    /// Sends `values` from `sender` to `receiver` in a method call (no reply expected) and
    /// returns the body as the receiver reads it.
    func roundTrip(_ values: [DBusValue], interface: String = "org.navd.Test.RoundTrip", member: String = "Carry")
        throws -> [DBusValue]
    {
        let call = try Message.methodCall(
            destination: receiver.uniqueName, path: "/org/navd/Test", interface: interface, member: member)
        call.noReplyExpected = true
        try call.append(values)
        let serial = try sender.send(call)
        sender.flush()
        guard let received = receiver.waitForMessage(matching: { $0.serial == serial && $0.member == member })
        else { throw HarnessError("the message did not arrive") }
        return try received.body()
    }
}

/// `count` arrays nested around an int32: `aa…ai`.
func nestedArrays(_ count: Int) -> DBusValue {
    var value = DBusValue.int32(7)
    for _ in 0..<count {
        value = .array(element: value.signature, [value])
    }
    return value
}

/// `count` structs nested around an int32: `((…(i)…))`.
func nestedStructs(_ count: Int) -> DBusValue {
    var value = DBusValue.int32(7)
    for _ in 0..<count { value = .structure([value]) }
    return value
}

/// `count` variants nested around a string.
func nestedVariants(_ count: Int) -> DBusValue {
    var value = DBusValue.string("core")
    for _ in 0..<count { value = .variant(value) }
    return value
}
