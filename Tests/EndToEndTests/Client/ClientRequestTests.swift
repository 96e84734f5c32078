import DBus
import NavdClient
import Testing

/// One request, its reply type erased, as either client sends it.
struct SampleRequest: Sendable {
    /// The contract method it calls; nil for a standard interface's member or the bus'.
    let method: NavigatorMethod?
    /// The member's name and its declaration's in-signature.
    let name: String
    let declaredArguments: Signature
    /// The signature of the arguments it carries.
    let arguments: Signature
    /// Sends it through the blocking client; returns the reply, described.
    let sendBlocking: @Sendable (NavigatorClient) throws(NavigatorError) -> String
    /// Sends it through the async client; returns the reply, described.
    let sendAwaiting: @Sendable (AsyncNavigator) async throws(NavigatorError) -> String

    init<Reply>(_ request: NavigatorRequest<Reply>) {
        method = request.method
        name = request.name
        declaredArguments = request.declaration.inSignature
        arguments = request.arguments.signature
        sendBlocking = { client throws(NavigatorError) in "\(try client.send(request))" }
        sendAwaiting = { navigator throws(NavigatorError) in "\(try await navigator.send(request))" }
    }

    /// Every method of the contract at least once, and what a client asks beyond it, in an order in which each
    /// succeeds on the demo graph from navd's start, and again from where the list leaves the tree. Made anew
    /// for each use: kept in a `static let`, LeakSanitizer reported the requests' argument values as leaked
    /// when the test process exited (`make check-long`).
    static var everyMethod: [SampleRequest] {[
        .init(.getState), .init(.getTree), .init(.getRoutes), .init(.getFlows), .init(.getEvents(source: "")),
        .init(.getEventParams(source: "")), .init(.resolve(event: "next")), .init(.resolve(link: "/news/7")),
        .init(.push("orange")), .init(.replace("yellow")), .init(.popTo("red")), .init(.push("orange")), .init(.pop),
        .init(.push("orange")), .init(.popToRoot), .init(.setStack([ScreenSpec(route: "red"), ScreenSpec(route: "orange")])),
        .init(.present("modal", style: .sheet)), .init(.dismiss), .init(.present("modal", styleName: "cover")),
        .init(.dismissAll), .init(.back), .init(.apply([.push("orange")])), .init(.undo), .init(.redo),
        .init(.send("next")), .init(.start("auth")), .init(.finish("cancelled")),
        .init(.setFacts(["signed-in": .bool(false)])), .init(.selectTab("news")), .init(.open("/news/7")),
        .init(.selectTab("rainbow")), .init(.popToRoot), .init(.history(limit: 3)), .init(.getTreeAt(0)), .init(.revert(to: 0)),
        .init(.getChanges(from: 0, limit: 3)), .init(.export(from: 0)), .init(.getLimits),
        .init(.reload),
        .init(.properties), .init(.facts), .init(.apps), .init(.navdOwner), .init(.call(.getState)),
    ]}
}

/// The request table against the contract: every method of `NavigatorMethod.all` has a request, its arguments
/// as declared.
@Suite("Every method has a request", .timeLimit(.minutes(1)))
struct ClientRequestTableTests {
    @Test("each method of the contract is reachable as a request, its arguments of the declared signature")
    func everyMethodHasARequest() {
        let covered = Set(SampleRequest.everyMethod.compactMap(\.method?.name))
        for method in NavigatorMethod.all {
            #expect(covered.contains(method.name), "\(method.name) has no request")
        }
        for sample in SampleRequest.everyMethod {
            #expect(sample.arguments == sample.declaredArguments, "\(sample.name)")
        }
    }
}

/// Both clients send every request to a real navd, and read each reply.
@Suite("Every request through both clients", .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct ClientRequestTests {
    @Test("every request succeeds through the blocking client, then through the async one, to the same tree")
    func everyRequestThroughBothClients() async throws {
        let fixture = try NavdOnPrivateBus()
        let client = try fixture.client()
        let navigator = try AsyncNavigator(bus: .address(fixture.bus.address), timeoutMilliseconds: 10_000)
        defer { navigator.close() }
        for sample in SampleRequest.everyMethod {
            do {
                _ = try sample.sendBlocking(client)
            } catch {
                Issue.record("\(sample.name) through NavigatorClient: \(error)")
            }
        }
        let afterBlocking = try client.send(.getState)
        for sample in SampleRequest.everyMethod {
            do {
                _ = try await sample.sendAwaiting(navigator)
            } catch {
                Issue.record("\(sample.name) through AsyncNavigator: \(error)")
            }
        }
        let afterAwaiting = try await navigator.send(.getState)
        #expect(afterAwaiting.tab == afterBlocking.tab)
        #expect(afterAwaiting.path.map(\.route) == afterBlocking.path.map(\.route))
        #expect(afterAwaiting.revision > afterBlocking.revision)
    }
}
