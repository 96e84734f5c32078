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
        let pathValue = Entry.dbusValue(path: path)
        #expect(pathValue.signature == WireSignature.path)
        #expect(try Entry.path(dbusValue: pathValue) == path)

        let nodes = [Node(id: "#1", parentID: "", kind: .tab, name: "rainbow"),
                     Node(id: "#2", parentID: "#1", kind: .cover, name: "login", params: Self.params)]
        #expect(Node.dbusValue(nodes: nodes).signature == WireSignature.nodes)
        #expect(try Node.nodes(dbusValue: Node.dbusValue(nodes: nodes)) == nodes)

        let history = [HistoryEntry(revision: 3, cause: "push", time: -5), HistoryEntry(revision: 2, cause: "start", time: 9)]
        #expect(HistoryEntry.dbusValue(history: history).signature == WireSignature.history)
        #expect(try HistoryEntry.history(dbusValue: HistoryEntry.dbusValue(history: history)) == history)

        let route = RouteInfo(name: "news-item", title: "News", params: ["id": "int"], required: ["id"],
                              presentations: ["push", "sheet"], link: "/news/{id}", hints: ["color": .string("red"), "index": .int(2)])
        #expect(try RouteInfo.routes(dbusValue: RouteInfo.dbusValue(routes: [route])) == [route])
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
        ]
        for refusal in refusals {
            #expect(NavigatorErrorName(refusal).rawValue == refusal.name)
            #expect(NavigatorErrorName(fullName: DBusError(refusal).name) == NavigatorErrorName(refusal))
        }
        #expect(Set(refusals.map(NavigatorErrorName.init)).count == NavigatorErrorName.allCases.count - 1)
    }

    @Test func onlyTheReadersAreAnsweredWithoutACommit() {
        let readers = Set(NavigatorMethod.all.filter { !$0.changesTree }.map(\.name))
        #expect(readers == ["GetState", "GetTree", "GetRoutes", "History"])
        #expect(NavigatorMethod.treeChangingNames.count == 15)
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
