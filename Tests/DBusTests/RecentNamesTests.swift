import DBus
import Testing

/// `ObjectServer.header(of:)` hands out the names of the last calls read again (`RecentNames`): whatever the order of
/// the calls, each header must be the message's own, byte for byte.
@Suite struct RecentNamesTests {
    @Test func headersAreEachMessagesOwnWhateverWasReadBefore() throws {
        // Names of the same length that differ in one byte, prefixes of each other, more than the names kept and
        // the 15-byte border of Swift's inline strings.
        let paths = [
            "/org/navd/Navigator1", "/org/navd/Navigator2", "/org/navd/Navigator1/apps/mail", "/org/navd/Navigator",
            "/", "/a", "/b", "/a/b", "/abcdefghijklmn", "/abcdefghijklmo", "/abcdefghijklmno", "/o",
        ]
        let interfaces = ["org.navd.Navigator1", "org.navd.Navigator2", "org.freedesktop.DBus.Properties", "a.b", "a.c"]
        let members = ["Push", "Pop", "Pus", "Pushy", "GetTreeAt", "GetTreeAu", "Get", "X"]
        let server = ObjectServer()
        var seen = 0
        for round in 0..<3 {
            for (index, path) in paths.enumerated() {
                for (other, interface) in interfaces.enumerated() {
                    let member = members[(index + other + round) % members.count]
                    let message = try Message.methodCall(destination: "org.navd.Test", path: path, interface: interface, member: member)
                    let header = server.header(of: message)
                    #expect(header.path == path && header.interface == interface && header.member == member,
                            "read \(String(describing: header.path)) \(String(describing: header.interface)) \(String(describing: header.member))")
                    seen += 1
                }
            }
        }
        #expect(seen == 3 * paths.count * interfaces.count)
        // A call naming no interface reads as none, whatever was read before.
        let bare = try Message.methodCall(destination: "org.navd.Test", path: "/a", interface: nil, member: "Push")
        let header = server.header(of: bare)
        #expect(header.interface == nil && header.path == "/a" && header.member == "Push")
    }
}
