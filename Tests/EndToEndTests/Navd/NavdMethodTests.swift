import DBus
import NavigatorProtocol
import Testing
import TestSupport

/// Every method of the contract and every error name, against the real navd on a private bus (the
/// embedded demo graph); the coordination methods are in the files named `NavdMethodTests+Coordination…`.
@Suite("navd methods", .timeLimit(.minutes(2)))
struct NavdMethodTests {
    /// The bus and navd, stopped when the test's instance is released.
    let fixture: NavdOnPrivateBus
    var bus: PrivateBus { fixture.bus }
    let client: Connection

    init() throws {
        fixture = try NavdOnPrivateBus()
        client = try Connection(.address(fixture.bus.address))
    }

    private func push(_ route: String, _ params: [(String, DBusValue)] = []) throws -> (UInt64, String) {
        let out = try client.navigator("Push", [.string(route), .vardict(params)])
        try Connection.requireTypes(out, ["t", "s"], "Push")
        return (out[0].uint64Value!, out[1].stringValue!)
    }

    @Test func freshTreeIsTheDemoGraphAtRevisionOne() throws {
        let state = try client.navigatorState()
        #expect(state.revision == 1)
        #expect(state.tab == "rainbow")
        #expect(state.path.map(\.route) == ["red"])
        #expect(state.path.map(\.presentation) == ["root"])
    }

    @Test func pushPopAndPopToRoot() throws {
        let (r1, id1) = try push("orange")
        #expect(r1 == 2)
        #expect(!id1.isEmpty && id1 != "orange")
        let (r2, id2) = try push("yellow")
        #expect(r2 == 3 && id2 != id1)
        #expect(try client.navigatorRoutes() == ["red", "orange", "yellow"])
        #expect(try client.navigator("Pop")[0].uint64Value == 4)
        #expect(try client.navigatorRoutes() == ["red", "orange"])
        _ = try push("green")
        #expect(try client.navigator("PopToRoot")[0].uint64Value == 6)
        #expect(try client.navigatorRoutes() == ["red"])
        // PopToRoot at a root is a no-op: the current revision, nothing else.
        #expect(try client.navigator("PopToRoot")[0].uint64Value == 6)
        #expect(client.navigatorError("Pop") == NavigatorErrorName(.atRoot).fullName)
    }

    @Test func popToByIdAndByRoute() throws {
        let (_, orangeId) = try push("orange")
        _ = try push("yellow")
        _ = try push("green")
        _ = try client.navigator("PopTo", [.string(orangeId)])
        #expect(try client.navigatorRoutes() == ["red", "orange"])
        _ = try push("yellow")
        _ = try push("blue")
        _ = try client.navigator("PopTo", [.string("yellow")])
        #expect(try client.navigatorRoutes() == ["red", "orange", "yellow"])
        #expect(client.navigatorError("PopTo", [.string("purple")]) == NavigatorErrorName(.notFound).fullName)
    }

    @Test func replaceKeepsThePresentation() throws {
        _ = try push("orange")
        let out = try client.navigator("Replace", [.string("teal"), .emptyParams])
        #expect(out.count == 2)
        let path = try client.navigatorState().path
        #expect(path.map(\.route) == ["red", "teal"])
        #expect(path.last?.presentation == "push")
        #expect(path.last?.id == out[1].stringValue)
    }

    @Test func setStackReplacesTheTopStack() throws {
        let screens: DBusValue = .array(element: WireSignature.namedDictionary, [
            .structure([.string("blue"), .emptyParams]),
            .structure([.string("news-item"), .vardict([("id", .int32(7))])]),
        ])
        _ = try client.navigator("SetStack", [screens])
        let path = try client.navigatorState().path
        #expect(path.map(\.route) == ["blue", "news-item"])
        #expect(path.map(\.presentation) == ["root", "push"])
        #expect(path.last?.params["id"] == .int64(7))
        let empty: DBusValue = .array(element: WireSignature.namedDictionary, [])
        #expect(client.navigatorError("SetStack", [empty]) == NavigatorErrorName(.invalidParams).fullName)
    }

    @Test func presentDismissAndBack() throws {
        let out = try client.navigator("Present", [.string("modal"), .emptyParams, .string("sheet")])
        #expect(out[0].uint64Value == 2)
        _ = try push("orange")
        var path = try client.navigatorState().path
        #expect(path.map(\.route) == ["red", "modal", "orange"])
        #expect(path.map(\.presentation) == ["root", "sheet", "push"])
        _ = try client.navigator("Back")  // pops orange inside the sheet
        _ = try client.navigator("Back")  // dismisses the sheet
        path = try client.navigatorState().path
        #expect(path.map(\.route) == ["red"])
        #expect(client.navigatorError("Back") == NavigatorErrorName(.atRoot).fullName)
        #expect(client.navigatorError("Dismiss") == NavigatorErrorName(.noModal).fullName)
        _ = try client.navigator("Present", [.string("login"), .emptyParams, .string("cover")])
        _ = try client.navigator("Present", [.string("modal"), .emptyParams, .string("sheet")])
        _ = try client.navigator("DismissAll")
        #expect(try client.navigatorRoutes() == ["red"])
        #expect(client.navigatorError("Present", [.string("login"), .emptyParams, .string("sheet")])
            == NavigatorErrorName(.notPresentable).fullName)
        #expect(client.navigatorError("Present", [.string("modal"), .emptyParams, .string("popover")])
            == NavigatorErrorName(.notPresentable).fullName)
    }

    @Test func tabsAndOpen() throws {
        _ = try client.navigator("SelectTab", [.string("news")])
        var state = try client.navigatorState()
        #expect(state.tab == "news" && state.path.map(\.route) == ["news-list"])
        #expect(client.navigatorError("SelectTab", [.string("nope")]) == NavigatorErrorName(.unknownTab).fullName)
        _ = try client.navigator("Open", [.string("end")])
        state = try client.navigatorState()
        #expect(state.tab == "rainbow")
        #expect(state.path.map(\.route) == ["red", "purple"])
        _ = try client.navigator("Open", [.string("navd:/news/7")])
        state = try client.navigatorState()
        #expect(state.tab == "news" && state.path.map(\.route) == ["news-list", "news-item"])
        #expect(state.path.last?.params["id"] == .int64(7))
        _ = try client.navigator("Open", [.string("/rainbow/orange/yellow")])
        #expect(try client.navigatorRoutes() == ["red", "orange", "yellow"])
        #expect(client.navigatorError("Open", [.string("/rainbow/orange;x=1")]) == NavigatorErrorName(.invalidParams).fullName)
        #expect(client.navigatorError("Open", [.string("/rainbow//orange")]) == NavigatorErrorName(.badTarget).fullName)
        #expect(client.navigatorError("Open", [.string("/nowhere/red")]) != nil)
    }

    @Test func undoRedo() throws {
        #expect(client.navigatorError("Undo") == NavigatorErrorName(.nothingToUndo).fullName)
        #expect(client.navigatorError("Redo") == NavigatorErrorName(.nothingToRedo).fullName)
        let (_, orangeId) = try push("orange")
        _ = try push("yellow")
        #expect(try client.navigator("Undo")[0].uint64Value == 4)
        var path = try client.navigatorState().path
        #expect(path.map(\.route) == ["red", "orange"])
        #expect(path.last?.id == orangeId)
        #expect(try client.navigator("Redo")[0].uint64Value == 5)
        path = try client.navigatorState().path
        #expect(path.map(\.route) == ["red", "orange", "yellow"])
    }

    @Test func paramsAreCheckedAgainstTheRoute() throws {
        #expect(client.navigatorError("Push", [.string("news-item"), .emptyParams]) == NavigatorErrorName(.invalidParams).fullName)
        #expect(client.navigatorError("Push", [.string("news-item"), .vardict([("id", .string("7"))])])
            == NavigatorErrorName(.invalidParams).fullName)
        #expect(client.navigatorError("Push", [.string("news-item"), .vardict([("id", .uint64(UInt64.max))])])
            == NavigatorErrorName(.invalidParams).fullName)
        #expect(client.navigatorError("Push", [.string("orange"), .vardict([("x", .int32(1))])])
            == NavigatorErrorName(.invalidParams).fullName)
        #expect(client.navigatorError("Push", [.string("nope"), .emptyParams]) == NavigatorErrorName(.unknownRoute).fullName)
        #expect(client.navigatorError("Push", [.string("login"), .emptyParams]) == NavigatorErrorName(.notPresentable).fullName)
        do {
            _ = try client.navigator("Push", [.string("news-item"), .emptyParams])
        } catch let error as DBusError {
            #expect(error.message.contains("id"))
            #expect(error.message.contains("int"))
        }
        // Nothing changed through all of that.
        #expect(try client.navigatorState().revision == 1)
    }

    @Test func wrongSignaturesAndUnknownMembers() throws {
        #expect(client.navigatorError("Push", [.string("orange")]) == DBusErrorName.invalidArgs)
        #expect(client.navigatorError("Push", [.int32(1), .emptyParams]) == DBusErrorName.invalidArgs)
        #expect(client.navigatorError("Fly") == DBusErrorName.unknownMethod)
        let message = try Message.navigatorCall("Pop", path: "/org/navd/Nowhere")
        #expect(throws: DBusError.self) { _ = try client.call(message) }
        #expect(try client.navigatorState().revision == 1)
    }

    @Test func limitsAreEnforced() throws {
        let long = String(repeating: "a", count: 4097)
        #expect(client.navigatorError("Push", [.string(long), .emptyParams]) == NavigatorErrorName(.limitExceeded).fullName)
        let big = String(repeating: "b", count: 70_000)
        #expect(client.navigatorError("Push", [.string("orange"), .vardict([("x", .string(big))])])
            == NavigatorErrorName(.limitExceeded).fullName)
    }

    @Test func applyIsAllOrNothing() throws {
        let good = Contract.ops([Contract.op("push", [("route", .string("orange"))]), Contract.op("push", [("route", .string("yellow"))])])
        #expect(try client.navigator("Apply", [good, .uint64(1)])[0].uint64Value == 2)
        #expect(try client.navigatorRoutes() == ["red", "orange", "yellow"])
        // From red > orange > yellow: push green, then four pops; the fourth is at the root.
        let bad = Contract.ops([Contract.op("push", [("route", .string("green"))]), Contract.op("pop"), Contract.op("pop"), Contract.op("pop"), Contract.op("pop")])
        #expect(client.navigatorError("Apply", [bad, .uint64(0)]) == NavigatorErrorName(.atRoot).fullName)
        #expect(try client.navigatorRoutes() == ["red", "orange", "yellow"])
        #expect(client.navigatorError("Apply", [good, .uint64(1)]) == NavigatorErrorName(.staleRevision).fullName)
        #expect(client.navigatorError("Apply", [Contract.ops([Contract.op("fly")]), .uint64(0)])
            == NavigatorErrorName(.invalidOperation).fullName)
        #expect(client.navigatorError("Apply", [Contract.ops([Contract.op("push")]), .uint64(0)])
            == NavigatorErrorName(.invalidOperation).fullName)
        #expect(try client.navigatorState().revision == 2)
        // An empty Apply is a no-op.
        #expect(try client.navigator("Apply", [Contract.ops([]), .uint64(0)])[0].uint64Value == 2)
    }

    @Test func historyAndRoutes() throws {
        _ = try push("orange")
        _ = try client.navigator("Pop")
        let history = try client.navigator("History", [.uint32(10)])[0].arrayValues ?? []
        #expect(history.count >= 2)
        #expect(history.first?.structFields?[0].uint64Value == 3)
        #expect(history.first?.structFields?[1].stringValue == "pop")
        #expect(history.dropFirst().first?.structFields?[1].stringValue == "push")
        let routes = try client.navigator("GetRoutes")[0].arrayValues ?? []
        let names = routes.compactMap { $0.structFields?.first?.stringValue }
        #expect(Set(names).isSuperset(of: ["red", "orange", "purple", "news-list", "news-item", "profile", "settings", "login", "forgot-password", "modal"]))
        let newsItem = routes.first { $0.structFields?.first?.stringValue == "news-item" }
        let keys = (newsItem?.structFields?[1].stringKeyedPairs ?? []).map(\.0)
        #expect(keys.contains("link") && keys.contains("params") && keys.contains("required") && keys.contains("presentations"))
    }

    @Test func treeListsEveryTabPreOrder() throws {
        _ = try client.navigator("Present", [.string("modal"), .emptyParams, .string("cover")])
        let out = try client.navigator("GetTree")
        let nodes = (out[2].arrayValues ?? []).map { $0.structFields ?? [] }
        let kinds = nodes.map { $0[2].stringValue ?? "" }
        #expect(kinds.filter { $0 == "tab" }.count == 3)
        #expect(kinds.contains("cover"))
        var seen: Set<String> = [""]
        for node in nodes {
            #expect(seen.contains(node[1].stringValue ?? "?"), "parent before child")
            seen.insert(node[0].stringValue ?? "")
        }
    }
}
