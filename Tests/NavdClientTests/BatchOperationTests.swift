import DBus
import NavigatorProtocol
import Testing
@testable import NavdClient

/// The client's op type derives from the one table of Apply's operations (`OperationDeclaration.all`): the
/// typed constructors cover it, the checked initializer follows it, and every op crosses the wire into the
/// daemon's parsing as the operation it names.
@Suite("BatchOperation follows the op table", .timeLimit(.minutes(1)))
struct BatchOperationTests {
    /// One typed op per operation, with every argument it takes.
    static let typed: [BatchOperation] = [
        .push("news-item", params: ["id": .int(7)]), .pop, .popTo("red"), .popToRoot,
        .replace("orange", params: ["x": .string("y")]),
        .setStack([ScreenSpec(route: "red"), ScreenSpec(route: "news-item", params: ["id": .int(3)])]),
        .present("modal", params: ["a": .bool(true)], style: .cover), .dismiss, .dismissAll, .back, .selectTab("news"),
        .open("/news/7"), .send("failed", params: ["message": .string("boom")], source: "#4"),
        .start("auth", params: ["n": .double(1.5)]), .finish("signed-in", params: ["k": .int(1)]),
        .setFacts(["signed-in": .bool(true)]), .revert(to: 12),
    ]

    @Test("there is one typed op per declared operation, and each is what the checked initializer makes")
    func typedConstructorsCoverTheTable() throws {
        #expect(Self.typed.map(\.name) == OperationDeclaration.all.map(\.name))
        for op in Self.typed {
            #expect(try BatchOperation(op.name, op.arguments) == op)
        }
    }

    @Test("each op crosses the wire and the daemon's parsing reads the operation it names")
    func wireRoundTrip() throws {
        let expected: [Operation] = [
            .push(route: "news-item", params: ["id": .int(7)]), .pop, .popTo(target: "red"), .popToRoot,
            .replace(route: "orange", params: ["x": .string("y")]),
            .setStack([ScreenRequest(route: "red"), ScreenRequest(route: "news-item", params: ["id": .int(3)])]),
            .present(route: "modal", params: ["a": .bool(true)], style: "cover"), .dismiss, .dismissAll, .back,
            .selectTab("news"), .open("/news/7"),
            .send(source: "#4", event: "failed", params: ["message": .string("boom")], expectedRevision: 0),
            .start(flow: "auth", params: ["n": .double(1.5)]), .finish(output: "signed-in", params: ["k": .int(1)]),
            .setFacts(["signed-in": .bool(true)]), .revert(revision: 12, expectedRevision: 0),
        ]
        let wire = DBusValue.array(element: WireSignature.namedDictionary, Self.typed.map(\.dbusValue))
        let raws = try RawOperation.operations(dbusValue: wire)
        #expect(try raws.map { try $0.parsed() } == expected)
    }

    @Test("every argument goes out with the signature its kind declares")
    func argumentSignatures() {
        for op in Self.typed {
            let declaration = OperationDeclaration.named(op.name)!
            for (key, argument) in op.arguments {
                #expect(argument.dbusValue.signature == declaration.argument(key)!.kind.signature, "\(op.name).\(key)")
            }
        }
    }

    @Test("an unknown op, an unknown or missing argument and a wrong kind are refused, saying which")
    func refusals() {
        func refusal(_ name: String, _ arguments: [String: BatchArgument]) -> String? {
            do {
                _ = try BatchOperation(name, arguments)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal("jump", [:])?.hasPrefix("unknown operation 'jump'; use one of push, pop, popto") == true)
        #expect(refusal("pop-to", ["target": .string("red")])?.hasPrefix("unknown operation 'pop-to'") == true,
                "navctl's spellings are for batch files; the client takes the contract's names")
        #expect(refusal("send", ["evnt": .string("next")]) == "send has no argument 'evnt'; it takes event, source, params")
        #expect(refusal("send", [:]) == "send needs argument 'event' (a string)")
        #expect(refusal("setstack", ["screens": .string("red")]) == "argument 'screens' of setstack must be an array a(sa{sv})")
        #expect(refusal("pop", ["route": .string("red")]) == "pop has no argument 'route'; it takes no arguments")
    }
}
