import DBus
import Navigation
import NavigatorProtocol
import Testing

/// Every wire type reads back what it wrote, and a value of the wrong shape is refused by name.
@Suite(.timeLimit(.minutes(1)))
struct WireRoundTripTests {
    static let params: [String: ParamValue] = ["id": .int(42), "title": .string("ü"), "zoom": .double(1.5), "on": .bool(true)]

    @Test func entriesNodesHistoryAndRoutesReadBackWhatTheyWrote() throws {
        let path = [
            Entry(id: "#1", route: "red", presentation: .root),
            Entry(id: "#2", route: "news-item", presentation: .sheet, params: Self.params),
        ]
        let pathValue = path.dbusValue
        #expect(pathValue.signature == WireSignature.path)
        #expect(try [Entry](dbusValue: pathValue) == path)

        let nodes = [Node(id: "#1", parentID: "", kind: .tab, name: "rainbow"),
                     Node(id: "#2", parentID: "#1", kind: .cover, name: "login", params: Self.params)]
        #expect(nodes.dbusValue.signature == WireSignature.nodes)
        #expect(try [Node](dbusValue: nodes.dbusValue) == nodes)

        let history = [HistoryEntry(revision: 3, cause: "push", time: -5), HistoryEntry(revision: 2, cause: "start", time: 9)]
        #expect(history.dbusValue.signature == WireSignature.history)
        #expect(try [HistoryEntry](dbusValue: history.dbusValue) == history)

        let route = RouteInfo(name: "news-item", title: "News", params: ["id": "int"], required: ["id"],
                              presentations: ["push", "sheet"], link: "/news/{id}", hints: ["color": .string("red"), "index": .int(2)])
        #expect(try RouteInfo.routes(dbusValue: RouteInfo.dbusValue(routes: [route])) == [route])
    }

    @Test func flowsEventsResolveAndFlowFinishedReadBackWhatTheyWrote() throws {
        let flows = [FlowInfo(id: "#9", flow: "auth", firstScreen: "#8", params: Self.params),
                     FlowInfo(id: "#12", flow: "auth", firstScreen: "#11", params: [:])]
        #expect(flows.dbusValue.signature == WireSignature.flows)
        #expect(try [FlowInfo](dbusValue: flows.dbusValue) == flows)

        let events = [EventInfo(event: "next", scope: "route"), EventInfo(event: "cancel", scope: "flow:auth")]
        #expect(events.dbusValue.signature == WireSignature.events)
        #expect(try [EventInfo](dbusValue: events.dbusValue) == events)

        let resolution = Resolution(
            outcome: .redirected, revision: 7, tab: "profile",
            path: [Entry(id: "#6", route: "profile", presentation: .root), Entry(id: "#8", route: "login", presentation: .cover)],
            trace: ["event 'account' from profile (#6)", "  guard: route 'account' needs fact 'signed-in'"])
        #expect(resolution.dbusValues.signature == NavigatorMethod.resolve.declaration.outSignature)
        #expect(try Resolution(dbusValues: resolution.dbusValues) == resolution)

        let end = FlowEnd(id: "#9", flow: "auth", output: "signed-in", params: Self.params)
        let arguments = end.flowFinishedArguments(revision: 12)
        #expect(arguments.signature == Navigator.flowFinished.signature)
        let read = try FlowEnd.flowFinished(dbusValues: arguments)
        #expect(read.revision == 12 && read.flow == end)
    }

    @Test func anUnknownOutcomeOrAShortReplyIsRefusedByName() {
        var values = Resolution(outcome: .noop, revision: 1, tab: "", path: [], trace: []).dbusValues
        values[0] = .string("maybe")
        do {
            _ = try Resolution(dbusValues: values)
            Issue.record("an unknown outcome was read")
        } catch {
            #expect(error.name == DBusErrorName.invalidArgs && error.message.contains("'maybe'"))
        }
        do {
            _ = try FlowEnd.flowFinished(dbusValues: [.uint64(1), .string("#9")])
            Issue.record("a short FlowFinished was read")
        } catch {
            #expect(error.message.contains("FlowFinished has 2 values"))
        }
        let events = DBusValue.array(element: WireSignature.event, [.structure([.string("next"), .int32(1)])])
        do {
            _ = try [EventInfo](dbusValue: events)
            Issue.record("an event with a number for its scope was read")
        } catch {
            #expect(error.message.hasPrefix("event 0:"))
        }
    }

    @Test func anUnknownPresentationOrKindIsRefusedByItsValue() {
        let entry = DBusValue.structure([.string("#1"), .string("red"), .string("popover"), [String: ParamValue]().dbusValue])
        #expect(throws: DBusError.self) { try Entry(dbusValue: entry) }
        do {
            _ = try Entry(dbusValue: entry)
        } catch {
            #expect(error.message.contains("'popover'"))
        }
        let node = DBusValue.structure([.string("#1"), .string(""), .string("window"), .string("x"), [String: ParamValue]().dbusValue])
        #expect(throws: DBusError.self) { try Node(dbusValue: node) }
    }

    @Test func aParamOfAnotherTypeIsRefusedNamingItsKey() {
        let params = DBusValue.vardict([("id", .stringArray(["1"]))])
        do {
            _ = try [String: ParamValue](dbusValue: params)
            Issue.record("an array was read as a param")
        } catch {
            #expect(error.message.hasPrefix("param 'id':"))
        }
    }
}

/// The declaration and the names derived from it.
@Suite(.timeLimit(.minutes(1)))
struct DeclarationTests {
    @Test func everyRefusalOfTheModelMapsToTheErrorOfTheSameName() {
        let refusals: [NavigationError] = [
            .unknownRoute(""), .invalidParams(""), .atRoot(""), .notFound(""), .noModal(""), .unknownTab(""),
            .notTabbed(""), .notPresentable(""), .badTarget(""), .staleRevision(""), .invalidOperation(""),
            .limitExceeded(""), .nothingToUndo(""), .nothingToRedo(""), .unhandledEvent(""), .staleSource(""),
            .unknownFlow(""), .unknownOutput(""), .notInFlow(""), .unknownFact(""), .guardFailed(""), .guardLoop(""),
            .revisionNotKept(""),
        ]
        for refusal in refusals {
            #expect(NavigatorErrorName(refusal).rawValue == refusal.name)
            #expect(NavigatorErrorName(fullName: DBusError(refusal).name) == NavigatorErrorName(refusal))
        }
        // Two names are the daemon's own, not the model's: StorageFailed and InvalidRouteFile.
        #expect(Set(refusals.map(NavigatorErrorName.init)).count == NavigatorErrorName.allCases.count - 2)
    }

    @Test func theErrorNamesAreTheContractsTable() {
        // The contract's list (docs/dbus-api.md), written out: the names derive from the model's kinds.
        #expect(NavigatorErrorName.allCases.map(\.fullName) == [
            "UnknownRoute", "InvalidParams", "AtRoot", "NotFound", "NoModal", "UnknownTab", "NotTabbed", "NotPresentable",
            "BadTarget", "StaleRevision", "InvalidOperation", "LimitExceeded", "NothingToUndo", "NothingToRedo",
            "UnhandledEvent", "StaleSource", "UnknownFlow", "UnknownOutput", "NotInFlow", "UnknownFact", "GuardFailed",
            "GuardLoop", "RevisionNotKept", "StorageFailed", "InvalidRouteFile",
        ].map { "org.navd.Navigator1.Error." + $0 })
        #expect(NavigatorErrorName(rawValue: "Nope") == nil)
        #expect(NavigatorErrorName(fullName: "org.freedesktop.DBus.Error.Failed") == nil)
    }

    @Test func navctlsSpellingsAndTheRouteFileVerbsDeriveFromTheOpTable() {
        let spellings = Dictionary(uniqueKeysWithValues: OperationDeclaration.all.map { ($0.name, $0.spellings) })
        #expect(spellings == [
            "push": [], "pop": [], "popto": ["pop-to"], "poptoroot": ["root", "pop-to-root"], "replace": [],
            "setstack": ["set-stack"], "present": [], "dismiss": [], "dismissall": ["dismiss-all"], "back": [],
            "selecttab": ["tab", "select-tab"], "open": [], "send": [], "start": [], "finish": [],
            "setfacts": ["set-facts", "facts"], "revert": [],
        ])
        #expect(OperationDeclaration.all.compactMap(\.routeFileVerb) == [
            "push", "pop", "pop-to", "root", "replace", "set-stack", "present", "dismiss", "dismiss-all", "back", "tab",
            "open", "start", "finish", "set-facts",
        ])
        #expect(OperationDeclaration.spelled("Pop-To-Root")?.kind == .popToRoot)
        #expect(OperationDeclaration.spelled("send-it") == nil)
    }

    @Test func onlyTheReadersAndReloadAreAnsweredWithoutACommit() {
        // Reload commits what is pending first and makes its own repair durable itself.
        let readers = Set(NavigatorMethod.all.filter { !$0.changesTree }.map(\.name))
        #expect(readers == ["GetState", "GetTree", "GetRoutes", "History", "GetFlows", "GetEvents", "Resolve", "Reload", "GetEventParams", "GetTreeAt", "GetChanges", "Export", "GetLimits"])
        #expect(NavigatorMethod.treeChangingNames.count == 20)
        #expect(Navigator.interface.methods.map(\.name) == NavigatorMethod.all.map(\.name))
        #expect(throws: Never.self) { try Navigator.interface.validate() }
    }

    @Test func aCallWithArgumentsOfTheWrongTypeIsRefusedBeforeItIsSent() {
        do {
            _ = try Navigator.call(.push, [.string("red")])
            Issue.record("Push without params was built")
        } catch {
            #expect(error.name == DBusErrorName.invalidArgs)
            #expect(error.message.contains("'sa{sv}'"))
        }
    }
}
