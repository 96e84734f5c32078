import DBus
import NavigatorProtocol
import Testing
@testable import NavdClient

/// How a request reads its reply: strictly, a reply of another type or with a value the contract does not allow
/// being `.unexpectedReply` naming the method, what was expected and what came, never a default value.
@Suite("Reading replies", .timeLimit(.minutes(1)))
struct RequestReplyTests {
    /// What `request` makes of `values` as a reply.
    func read<Reply>(_ request: NavigatorRequest<Reply>, _ values: [DBusValue]) throws(NavigatorError) -> Reply {
        try request.read(signature: values.signature.rawValue) { () throws(DBusError) in values }
    }

    @Test("a reply of the declared type is read into the reply's value")
    func declaredType() throws {
        #expect(try read(.pop, [.uint64(7)]) == 7)
        #expect(try read(.push("orange"), [.uint64(2), .string("orange-2")]) == AddedScreen(revision: 2, id: "orange-2"))
        #expect(try read(.send("next"), [.uint64(3), .string("applied")]) == EventOutcome(revision: 3, outcome: .applied))
        #expect(try read(.start("auth"), [.uint64(4), .string("flow-1")]) == StartedFlow(revision: 4, id: "flow-1"))
        #expect(try read(.call(.pop), [.uint64(5)]) == [.uint64(5)])
    }

    @Test("a reply of another type is an unexpected reply naming the method, the declared and the received type")
    func wrongType() {
        #expect(throws: NavigatorError.unexpectedReply(method: "Pop", expected: "'t'", received: "'s'")) {
            try read(.pop, [.string("seven")])
        }
        #expect(throws: NavigatorError.unexpectedReply(method: "GetState", expected: "'tsa(sssa{sv})'", received: "'ts'")) {
            try read(.getState, [.uint64(1), .string("rainbow")])
        }
        #expect(throws: NavigatorError.unexpectedReply(method: "GetAll", expected: "'a{sv}'", received: "'s'")) {
            try read(.properties, [.string("nothing")])
        }
        let error = NavigatorError.unexpectedReply(method: "Pop", expected: "'t'", received: "'s'")
        #expect(error.description == "unexpected reply from navd to Pop: expected 't', received 's'")
    }

    @Test("a value the contract does not allow is an unexpected reply saying what came")
    func valueNotAllowed() {
        #expect(throws: NavigatorError.unexpectedReply(
            method: "Send", expected: "a reply the contract allows",
            received: "outcome 'weird' is not applied, redirected, resumed, finished, ignored or noop")) {
            try read(.send("next"), [.uint64(3), .string("weird")])
        }
    }

    @Test("every property must come, of its declared type: none is read as 0 or an empty string")
    func strictProperties() throws {
        let all: [(String, DBusValue)] = NavigatorProperty.allCases.map { property in
            let value: DBusValue = switch property {
            case .revision: .uint64(9)
            case .depth: .uint32(1)
            case .top, .topID, .selectedTab, .version: .string("x")
            case .tabs: .stringArray(["rainbow"])
            case .canUndo, .canRedo: .boolean(true)
            case .states: .stringDictionary([("root", "/rainbow")])
            case .facts: ["signed-in": ParamValue.bool(true)].dbusValue
            case .access: Navigator.accessValue(nil)
            case .backTarget: .structure([.string("#1"), .string("red"), .string("root")])
            }
            return (property.name, value)
        }
        let properties = try read(.properties, [.vardict(all)])
        #expect(properties.revision == 9 && properties.tabs == ["rainbow"] && properties.states == ["root": "/rainbow"])
        #expect(properties.facts == ["signed-in": .bool(true)] && properties.canRedo)
        #expect(properties.backTarget == BackTarget(id: "#1", route: "red", presentation: .root))
        let atRoot = all.map { $0.0 == NavigatorProperty.backTarget.name ? ($0.0, .structure([.string(""), .string(""), .string("")])) : $0 }
        #expect(try read(.properties, [.vardict(atRoot)]).backTarget == nil)
        #expect(throws: NavigatorError.unexpectedReply(
            method: "GetAll", expected: "a reply the contract allows",
            received: "back target '#1' has presentation 'slide', not root, push, sheet or cover")) {
            try read(.properties, [.vardict(all.map {
                $0.0 == NavigatorProperty.backTarget.name ? ($0.0, .structure([.string("#1"), .string("red"), .string("slide")])) : $0
            })])
        }
        #expect(throws: NavigatorError.unexpectedReply(
            method: "GetAll", expected: "a reply the contract allows",
            received: "expected property BackTarget of type '(sss)', got '(ss)'")) {
            try read(.properties, [.vardict(all.map {
                $0.0 == NavigatorProperty.backTarget.name ? ($0.0, .structure([.string("#1"), .string("red")])) : $0
            })])
        }
        #expect(throws: NavigatorError.unexpectedReply(
            method: "GetAll", expected: "a reply the contract allows",
            received: "expected property Revision of type 't', got none")) {
            try read(.properties, [.vardict(all.filter { $0.0 != NavigatorProperty.revision.name })])
        }
        #expect(throws: NavigatorError.unexpectedReply(
            method: "GetAll", expected: "a reply the contract allows",
            received: "expected property Top of type 's', got 'u'")) {
            try read(.properties, [.vardict(all.map { $0.0 == NavigatorProperty.top.name ? ($0.0, .uint32(0)) : $0 })])
        }
    }

    @Test("navd's bus name without an owner is no owner; any other error is the request's failure")
    func ownerErrors() throws {
        let noOwner = DBusError(name: DBusErrorName.nameHasNoOwner, message: "no owner")
        #expect(try NavigatorRequest<String?>.navdOwner.reply(.failure(noOwner), bus: "b") == nil)
        let denied = DBusError(name: DBusErrorName.accessDenied, message: "no")
        #expect(throws: NavigatorError.remote(name: DBusErrorName.accessDenied, message: "no")) {
            try NavigatorRequest<String?>.navdOwner.reply(.failure(denied), bus: "b")
        }
        #expect(throws: NavigatorError.unreachable(bus: "b", reason: "gone")) {
            try NavigatorRequest<UInt64>.pop.reply(.failure(DBusError(name: DBusErrorName.disconnected, message: "gone")), bus: "b")
        }
    }

    @Test("arguments of another type than declared are refused before anything is sent")
    func wrongArguments() {
        #expect(throws: NavigatorError.remote(
            name: DBusErrorName.invalidArgs, message: "Push takes 'sa{sv}' but was given 'u'")) {
            try NavigatorRequest<[DBusValue]>.call(.push, [.uint32(1)]).message(navigatorPath: Navigator.objectPath, bus: "b")
        }
    }
}
