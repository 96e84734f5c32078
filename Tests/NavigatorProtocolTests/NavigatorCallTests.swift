import DBus
import Navigation
import NavigatorProtocol
import Testing

/// Each method's arguments value is its one declaration: the declared in-arguments are its fields, its encoding
/// reads back as the same call, and a value of another type is refused naming the argument.
@Suite(.timeLimit(.minutes(1)))
struct NavigatorCallTests {
    // Made on each use, not kept in globals: a global holding a boxed DBusValue is reported as leaked by
    // LeakSanitizer (make check-long), which does not take a pointer with the case in its spare bits for one.
    static var params: CallParams {
        CallParams(made: .vardict([("id", .variant(.int64(7))), ("title", .variant(.string("ü")))]))
    }
    static var screens: CallScreens {
        CallScreens(made: .array(element: WireSignature.namedDictionary, [.structure([.string("red"), params.argumentValue])]))
    }
    static var ops: CallOperations {
        CallOperations(made: .array(element: WireSignature.namedDictionary, [
            .structure([.string("push"), .vardict([("route", .variant(.string("red")))])]),
        ]))
    }

    /// A call of `method` with a value in every field (a switch: a method without one does not compile).
    static func sample(_ method: NavigatorMethod) -> NavigatorCall {
        let none = NoArguments()
        switch method {
        case .push: return .push(RouteArguments(route: "red", params: params))
        case .pop: return .pop(none)
        case .popTo: return .popTo(TargetArguments(target: "#2"))
        case .popToRoot: return .popToRoot(none)
        case .replace: return .replace(RouteArguments(route: "blue", params: params))
        case .setStack: return .setStack(ScreensArguments(screens: screens))
        case .present: return .present(PresentArguments(route: "red", params: params, style: "sheet"))
        case .dismiss: return .dismiss(none)
        case .dismissAll: return .dismissAll(none)
        case .back: return .back(none)
        case .selectTab: return .selectTab(TabArguments(tab: "news"))
        case .open: return .open(TargetArguments(target: "/news/7"))
        case .apply: return .apply(ApplyArguments(ops: ops, expectedRevision: 9))
        case .undo: return .undo(none)
        case .redo: return .redo(none)
        case .getState: return .getState(none)
        case .getTree: return .getTree(none)
        case .getRoutes: return .getRoutes(none)
        case .history: return .history(LimitArguments(limit: 5))
        case .send: return .send(SendArguments(source: "#1", event: "next", params: params, expectedRevision: 3))
        case .start: return .start(StartArguments(flow: "signup", params: params))
        case .finish: return .finish(FinishArguments(output: "done", params: params))
        case .setFacts: return .setFacts(FactsArguments(facts: params))
        case .getFlows: return .getFlows(none)
        case .getEvents: return .getEvents(SourceArguments(source: "#1"))
        case .resolve: return .resolve(ResolveArguments(kind: "event", target: "next", params: params))
        case .reload: return .reload(none)
        case .getEventParams: return .getEventParams(SourceArguments(source: ""))
        case .getTreeAt: return .getTreeAt(RevisionArguments(revision: 4))
        case .revert: return .revert(RevertArguments(revision: 4, expectedRevision: 6))
        case .getChanges: return .getChanges(ChangesArguments(fromRevision: 2, limit: 10))
        case .export: return .export(ExportArguments(fromRevision: 2, redact: true))
        case .getLimits: return .getLimits(none)
        }
    }

    @Test(arguments: NavigatorMethod.allCases)
    func everyMethodsCallReadsBackAsItselfWithTheDeclaredSignature(_ method: NavigatorMethod) throws {
        let call = Self.sample(method)
        #expect(call.method == method)
        let values = call.values
        #expect(values.map(\.signature.rawValue).joined() == method.declaration.inSignature.rawValue)
        #expect(values.count == method.declaration.inArguments.count)
        #expect(try NavigatorCall(method, values: values) == call)
        // The values go through a real message and back, as the bus carries them.
        let message = try Navigator.call(method, values, path: Navigator.objectPath)
        #expect(try NavigatorCall(method, values: message.body()) == call)
    }

    /// What a call asks of the navigator agrees with its declaration: a change exactly for the methods that are
    /// committed before they are answered, the service's own handling only for the three that need more than the
    /// state, and a reading for every other.
    @Test(arguments: NavigatorMethod.allCases)
    func everyMethodsMeaningAgreesWithItsDeclaration(_ method: NavigatorMethod) {
        switch Self.sample(method).meaning {
        case .change: #expect(method.changesTree, "\(method.name) is a change but not declared as changing the tree")
        case .reading: #expect(!method.changesTree && ![.reload, .getChanges, .export].contains(method))
        case .service: #expect([.reload, .getChanges, .export].contains(method), "\(method.name) needs a handler of the service's own")
        }
    }

    @Test(arguments: NavigatorMethod.allCases)
    func anArgumentOfAnotherTypeIsRefusedAsInvalidArgs(_ method: NavigatorMethod) {
        let values = Self.sample(method).values
        for (index, argument) in method.declaration.inArguments.enumerated() {
            var wrong = values
            wrong[index] = .int32(3)
            do {
                _ = try NavigatorCall(method, values: wrong)
                Issue.record("\(method.name)'s \(argument.name) of type 'i' was read")
            } catch {
                #expect(error.name == DBusErrorName.invalidArgs)
                let named = argument.signature == WireSignature.params ? "params a{sv}" : argument.name
                #expect(error.message.contains(named), "\(error.message)")
                #expect(error.message.contains("got a value of type 'i'"), "\(error.message)")
            }
        }
    }

    @Test func aCallWithTooFewValuesIsRefusedNamingWhatItTakes() {
        do {
            _ = try NavigatorCall(.push, values: [.string("red")])
            Issue.record("a Push of one value was read")
        } catch {
            #expect(error.name == DBusErrorName.invalidArgs)
            #expect(error.message == "expected 2 arguments (route, params), got 1")
        }
    }

    @Test func theArgumentsOfAMethodAreItsValuesFieldsInOrder() {
        #expect(SendArguments.declarations.map(\.name) == ["source", "event", "params", "expected_revision"])
        #expect(NavigatorMethod.send.declaration.inArguments == SendArguments.declarations)
        #expect(NavigatorMethod.apply.declaration.inSignature.rawValue == "a(sa{sv})t")
        #expect(NavigatorMethod.pop.declaration.inArguments.isEmpty)
    }

    @Test func aChangingMethodsCauseIsItsNameInLowerCaseAndEachCauseReadsBack() {
        for method in NavigatorMethod.allCases {
            #expect(method.changeCause?.rawValue == (method.changesTree ? method.name.lowercased() : nil), "\(method.name)")
        }
        #expect(NavigatorMethod.popTo.changeCause == .op(.popTo) && NavigatorMethod.apply.changeCause == .apply)
        let causes = OperationKind.allCases.map(ChangeCause.op) + [.apply, .undo, .redo, .reconcile]
        for cause in causes { #expect(ChangeCause(rawValue: cause.rawValue) == cause) }
        #expect(causes.map(\.rawValue).contains("setfacts") && ChangeCause(rawValue: "state") == nil)
        #expect(Operation.undo.cause == "undo" && Operation.popTo(target: "#1").cause == "popto")
    }

    @Test func theDetailKeysAreTheContracts() {
        #expect(ChangeDetail.allCases.map(\.rawValue)
            == ["args", "sender", "uid", "pid", "command", "event", "source", "outcome", "reason", "tab", "top"])
    }
}
