import DBus
import Navigation
import NavigatorProtocol
import Testing
import TestSupport

/// GetEventParams on the real navd: GetEvents' list with the params each handler reads, on the wire as
/// `a(ssa{ss})`, and StaleSource for a screen that is not on the path.
extension NavdMethodTests {
    @Test func getEventParamsNamesTheMessageThatFailedNeeds() throws {
        _ = try client.navigator("SelectTab", [.string("news")])
        _ = try client.sendEvent("call")
        let reply = try client.navigator(NavigatorMethod.getEventParams.name, [.string("")])
        #expect(reply.map(\.signature.rawValue) == ["a(ssa{ss})"])
        #expect(try [EventParamsInfo](dbusValue: reply[0]) == [
            EventParamsInfo(event: "succeeded", scope: "route"),
            EventParamsInfo(event: "failed", scope: "route", params: ParamDeclaration(
                types: ["message": .string], order: ["message"], required: ["message"])),
        ])
        // What it lists is what Send needs: without the param refused, with it applied.
        #expect(client.navigatorRefusal(NavigatorMethod.send.name, .sendArguments("failed"))?.name
            == NavigatorErrorName(.invalidParams).fullName)
        #expect(try client.sendEvent("failed", [("message", .string("timeout"))]).outcome == "applied")
        let events = try [EventParamsInfo](dbusValue: client.navigator(NavigatorMethod.getEventParams.name, [.string("")])[0])
        #expect(events.map(\.event) == (try client.navigatorEvents().map { String($0.split(separator: " ")[0]) }))
        let stale = try #require(client.navigatorRefusal(NavigatorMethod.getEventParams.name, [.string("#99")]))
        #expect(stale.name == NavigatorErrorName(.staleSource).fullName)
        #expect(stale.message.contains("'#99' is not on the path"), "\(stale.message)")
    }
}
