import DBus
import Foundation
import NavdClient
import TestSupport
import Testing

/// AsyncNavigator's calls against the real navd: the same replies as the blocking client, refusals
/// as the typed error (and nothing changed), concurrent calls from many tasks, a closed navigator.
@Suite("AsyncNavigator calls", .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct AsyncNavigatorCallTests {
    let fixture: NavdOnPrivateBus
    let navigator: AsyncNavigator

    init() throws {
        fixture = try NavdOnPrivateBus()
        navigator = try AsyncNavigator(bus: .address(fixture.bus.address), timeoutMilliseconds: 10_000)
    }

    @Test func everyKindOfChangeAndRead() async throws {
        let orange = try await navigator.send(.push("orange"))
        #expect(orange.revision == 2)
        #expect(try await navigator.send(.getState).top?.id == orange.id)
        _ = try await navigator.send(.push("yellow"))
        #expect(try await navigator.send(.popTo(orange.id)) == 4)
        #expect(try await navigator.send(.replace("green")).revision == 5)
        #expect(try await navigator.send(.present("modal", style: .sheet)).revision == 6)
        #expect(try await navigator.send(.dismiss) == 7)
        #expect(try await navigator.send(.back) == 8)
        #expect(try await navigator.send(.getState).path.map(\.route) == ["red"])
        #expect(try await navigator.send(.setStack([ScreenSpec(route: "blue"), ScreenSpec(route: "green")])) == 9)
        #expect(try await navigator.send(.popToRoot) == 10)
        #expect(try await navigator.send(.apply([.push("orange"), .push("yellow")], expectedRevision: 10)) == 11)
        #expect(try await navigator.send(.undo) == 12)
        #expect(try await navigator.send(.redo) == 13)
        #expect(try await navigator.send(.selectTab("news")) == 14)
        #expect(try await navigator.send(.open("/news/7")) == 15)
        let state = try await navigator.send(.getState)
        #expect(state.tab == "news")
        #expect(state.path.map(\.route) == ["news-list", "news-item"])
        let tree = try await navigator.send(.getTree)
        #expect(tree.revision == 15)
        #expect(tree.nodes.contains { $0.name == "news-item" })
        #expect(try await navigator.send(.getRoutes).contains { $0.name == "news-item" })
        #expect(try await navigator.send(.history(limit: 2)).map(\.cause) == ["open", "selecttab"])
        let properties = try await navigator.send(.properties)
        #expect(properties.revision == 15 && properties.top == "news-item" && properties.tabs.contains("rainbow"))
        #expect(try await navigator.send(.navdOwner)?.hasPrefix(":") == true)
        // The blocking client sees the same tree.
        #expect(try fixture.client().send(.getState) == state)
    }

    @Test func aRefusalIsTheTypedErrorAndChangesNothing() async throws {
        let before = try await navigator.send(.getState)
        do {
            _ = try await navigator.send(.pop)
            Issue.record("a pop at the root succeeded")
        } catch {
            guard case .remote(let name, let message) = error else { Issue.record("expected a refusal, got \(error)"); return }
            #expect(name == NavigatorErrorName(.atRoot).fullName)
            #expect(!message.isEmpty)
        }
        do {
            _ = try await navigator.send(.push("pink"))
            Issue.record("push of an unknown route succeeded")
        } catch {
            #expect(error.shortName == "UnknownRoute")
            #expect(error.description.contains("pink"))
        }
        do {
            _ = try await navigator.send(.call(.push, [.uint32(1)]))
            Issue.record("a call with the wrong signature was sent")
        } catch {
            #expect(error.shortName == "org.freedesktop.DBus.Error.InvalidArgs")
        }
        #expect(try await navigator.send(.getState) == before)
    }

    @Test func concurrentCallsFromManyTasksEachGetTheirOwnReply() async throws {
        let navigator = navigator
        let revisions = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for _ in 0..<12 { group.addTask { try await navigator.send(.push("orange")).revision } }
            var all: [UInt64] = []
            for try await revision in group { all.append(revision) }
            return all
        }
        #expect(revisions.sorted() == Array(2...13))
        #expect(try await navigator.send(.getState).path.count == 13)
    }

    @Test func aClosedNavigatorRefusesCallsAsUnreachable() async throws {
        navigator.close()
        navigator.close()
        #expect(navigator.isClosed)
        do {
            _ = try await navigator.send(.getState)
            Issue.record("a closed navigator answered")
        } catch {
            guard case .unreachable = error else { Issue.record("expected unreachable, got \(error)"); return }
        }
    }

    @Test func withoutNavdCallsAreUnreachableAndThereIsNoOwner() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let lonely = try AsyncNavigator(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        #expect(try await lonely.send(.navdOwner) == nil)
        do {
            _ = try await lonely.send(.push("orange"))
            Issue.record("a push without navd succeeded")
        } catch {
            guard case .unreachable(let described, _) = error else { Issue.record("expected unreachable, got \(error)"); return }
            #expect(described == bus.address)
        }
    }
}
