import DBus
import Navigation
import NavigatorProtocol
import Testing
import TestSupport

/// The coordinator demos of the reference articles, as events against the embedded demo graph:
/// each step is a Send from the screen on top.
extension NavdMethodTests {
    /// Sends `event` from the top screen and returns the outcome and the routes of the path after it.
    private func step(_ event: String, _ params: [(String, DBusValue)] = []) throws -> (String, [String]) {
        let outcome = try client.sendEvent(event, params).outcome
        return (outcome, try client.navigatorRoutes())
    }

    @Test func rainbowNextRootEndShowModalClose() throws {
        let colours = ["red", "orange", "yellow", "green", "teal", "blue", "purple"]
        for count in 2...colours.count {
            #expect(try step("next") == ("applied", Array(colours.prefix(count))))
        }
        #expect(client.navigatorError(NavigatorMethod.send.name, .sendArguments("next")) == NavigatorErrorName(.unhandledEvent).fullName)
        #expect(try step("root") == ("applied", ["red"]))
        #expect(try step("end") == ("applied", ["red", "purple"]))
        #expect(try step("show-modal") == ("applied", ["red", "purple", "modal"]))
        #expect(try client.navigatorState().path.last?.presentation == "cover")
        #expect(try client.navigatorEvents().first == "close route")
        #expect(try step("close") == ("applied", ["red", "purple"]))
        let causes = (try client.navigator("History", [.uint32(100)])[0].arrayValues ?? []).compactMap { $0.structFields?[1].stringValue }
        #expect(causes.count == 10 && Set(causes) == ["send"], "every step is one change of cause send: \(causes)")
    }

    @Test func profileAccountLogsInThroughTheGuardAndLogoutRemovesIt() throws {
        _ = try client.navigator("SelectTab", [.string("profile")])
        #expect(try step("account") == ("redirected", ["profile", "login"]))
        #expect(try client.navigatorState().path.last?.presentation == "cover")
        #expect(try client.navigatorFlows().map(\.flow) == ["auth"])
        #expect(try step("forgot-password") == ("applied", ["profile", "login", "forgot-password"]))
        // forgot-password is inside the flow: the flow still encloses it.
        #expect(try client.navigatorFlows().count == 1)
        #expect(try step("sent") == ("applied", ["profile", "login"]))
        #expect(try step("succeeded") == ("resumed", ["profile", "account"]))
        #expect(try client.navigatorFacts() == ["signed-in": .bool(true)])
        #expect(try client.navigatorFlows().isEmpty)
        #expect(try step("logout") == ("applied", ["profile"]))
        #expect(try client.navigatorFacts() == ["signed-in": .bool(false)])
        // Signed out again, account redirects again; cancel drops the kept request.
        #expect(try step("account") == ("redirected", ["profile", "login"]))
        #expect(try step("cancel") == ("finished", ["profile"]))
        // Signed in first, account is a plain push.
        _ = try client.navigator(NavigatorMethod.setFacts.name, [.vardict([("signed-in", .boolean(true))])])
        #expect(try step("account") == ("applied", ["profile", "account"]))
    }

    @Test func newsCallFailsIsRetriedAndSucceeds() throws {
        _ = try client.navigator("SelectTab", [.string("news")])
        #expect(try step("call") == ("applied", ["news-list", "call-progress"]))
        #expect(try step("failed", [("message", .string("timed out"))]) == ("applied", ["news-list", "call-error"]))
        #expect(try client.navigatorState().path.last?.params["message"] == .string("timed out"))
        #expect(try step("retry") == ("applied", ["news-list", "call-progress"]))
        #expect(try step("succeeded") == ("applied", ["news-list", "call-success"]))
        // A failure without the message its handler reads is InvalidParams naming it.
        _ = try client.navigator("Replace", [.string("call-progress"), .emptyParams])
        let refusal = try #require(client.navigatorRefusal(NavigatorMethod.send.name, .sendArguments("failed")))
        #expect(refusal.name == NavigatorErrorName(.invalidParams).fullName)
        #expect(refusal.message.contains("message"), "\(refusal.message)")
    }

    @Test func aLateCallResultFromALeftScreenIsStale() throws {
        _ = try client.navigator("SelectTab", [.string("news")])
        _ = try step("call")
        let progress = try #require(try client.navigatorState().path.last?.id)
        _ = try client.navigator("Back")
        let late = try #require(client.navigatorRefusal(NavigatorMethod.send.name, .sendArguments("succeeded", from: progress)))
        #expect(late.name == NavigatorErrorName(.staleSource).fullName)
        #expect(try client.navigatorRoutes() == ["news-list"])
    }
}
