import DBus
import Foundation
@testable import NavdClient
import TestSupport
import Testing

/// AsyncNavigator's update sequence: navwatch's follow rules (a revision gap fetches the state, a stale
/// signal is ignored, navd leaving and coming back), a real navd killed and restarted on its state
/// directory, and the end of every iteration's thread when its consumer is cancelled, its iterator
/// dropped, its navigator closed. Serialized: the thread checks count this process' reader threads.
@Suite("AsyncNavigator updates", .serialized, .enabled(if: EndToEnd.navdAvailable), .timeLimit(.minutes(2)))
struct AsyncNavigatorUpdateTests {
    @Test("after a missed signal it fetches the state; stale signals are ignored; navd going and coming back")
    func followsTheRules() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        var peer = try Peer(bus: bus, state: Peer.rainbow(1))
        let navigator = try AsyncNavigator(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        defer { navigator.close() }
        var updates = navigator.updates().makeAsyncIterator()
        #expect(try await updates.next() == .state(StateChange(cause: "state", state: Peer.rainbow(1))))
        try peer.emit("push", Peer.rainbow(2, ["orange"]))
        #expect(try await updates.next() == .state(StateChange(cause: "push", state: Peer.rainbow(2, ["orange"]))))

        // Revisions 3 and 4 are never signalled; by the time the reader asks, navd is at 5.
        let callsBefore = peer.getStateCalls
        peer.setState(Peer.rainbow(5, ["blue"]))
        try peer.emit("push", Peer.rainbow(4, ["orange", "yellow", "green"]), makeCurrent: false)
        #expect(try await updates.next() == .state(StateChange(cause: "state", state: Peer.rainbow(5, ["blue"]))))
        #expect(peer.getStateCalls == callsBefore + 1)
        try peer.emit("pop", Peer.rainbow(3, ["orange"]), makeCurrent: false)  // stale: ignored
        try peer.emit("push", Peer.rainbow(6, ["blue", "green"]))
        #expect(try await updates.next() == .state(StateChange(cause: "push", state: Peer.rainbow(6, ["blue", "green"]))))

        // navd leaves; a new navd's start-up state is the new baseline, though its revision is lower.
        peer.stop()
        #expect(try await updates.next() == .navdGone)
        peer = try Peer(bus: bus, state: Peer.rainbow(1))
        try peer.emit("start", Peer.rainbow(1))
        #expect(try await updates.next() == .state(StateChange(cause: "start", state: Peer.rainbow(1))))

        // One that sends no start-up signal is asked for its state instead.
        peer.stop()
        #expect(try await updates.next() == .navdGone)
        peer = try Peer(bus: bus, state: Peer.rainbow(3, ["yellow"]))
        #expect(try await updates.next() == .state(StateChange(cause: "state", state: Peer.rainbow(3, ["yellow"]))))
        peer.stop()
    }

    /// Regression: the sequence yielded a start-up state twice when the start-up signal came twice at the same
    /// revision (a start-up signal is shown whatever its revision), so a view redrew what it had just drawn.
    @Test("a start-up signal repeated at the same revision yields its state once")
    func repeatedStartupSignal() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let peer = try Peer(bus: bus, state: Peer.rainbow(3, ["orange"]))
        defer { peer.stop() }
        let navigator = try AsyncNavigator(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        defer { navigator.close() }
        var updates = navigator.updates().makeAsyncIterator()
        #expect(try await updates.next() == .state(StateChange(cause: "state", state: Peer.rainbow(3, ["orange"]))))
        try peer.emit("restore", Peer.rainbow(3, ["orange"]))
        try peer.emit("restore", Peer.rainbow(3, ["orange"]))
        try peer.emit("push", Peer.rainbow(4, ["orange", "green"]))
        #expect(try await updates.next() == .state(StateChange(cause: "restore", state: Peer.rainbow(3, ["orange"]))))
        #expect(try await updates.next() == .state(StateChange(cause: "push", state: Peer.rainbow(4, ["orange", "green"]))))
    }

    @Test("navd killed and restarted on the same state directory: the restored state, then on")
    func acrossANavdRestart() async throws {
        let bus = try PrivateBus()
        let directory = NavdProcess.temporaryStateDirectory()
        let navd = try NavdProcess.started(bus: bus, stateDirectory: directory)
        defer {
            navd.stop()
            bus.stop()
            TemporaryDirectory.remove(directory)
        }
        let navigator = try AsyncNavigator(bus: .address(bus.address), timeoutMilliseconds: 10_000)
        defer { navigator.close() }
        _ = try await navigator.send(.push("orange"))
        var updates = navigator.updates().makeAsyncIterator()
        guard case .state(let first)? = try await updates.next() else { Issue.record("no first state"); return }
        #expect(first.cause == "state")
        #expect(first.state.path.map(\.route) == ["red", "orange"])

        navd.kill9()
        #expect(try await updates.next() == .navdGone)
        try navd.start()
        // The start-up signal says `restore`; should it come late, a GetState ("state") comes first.
        guard case .state(let restored)? = try await updates.next() else { Issue.record("no restored state"); return }
        #expect(["restore", "state"].contains(restored.cause))
        #expect(restored.state == first.state)

        let yellow = try await navigator.send(.push("yellow"))
        var next = try await updates.next()
        if next == .state(StateChange(cause: "restore", state: first.state)) { next = try await updates.next() }
        guard case .state(let pushed)? = next else { Issue.record("no state after the push: \(String(describing: next))"); return }
        #expect(pushed.cause == "push")
        #expect(pushed.revision == first.revision + 1 && yellow.revision == pushed.revision)
        #expect(pushed.state.top?.id == yellow.id)
    }

    @Test("cancelling the consuming task ends the iteration and its thread")
    func cancellationEndsTheThread() async throws {
        let fixture = try NavdOnPrivateBus()
        let navigator = try AsyncNavigator(bus: .address(fixture.bus.address), timeoutMilliseconds: 10_000)
        let before = updateReaderThreads()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var seen = 0
            for try await _ in navigator.updates() {
                seen += 1
                startedContinuation.yield()
            }
            return seen
        }
        for await _ in started { break }
        let mine = updateReaderThreads().subtracting(before)
        #expect(mine.count == 1)
        #expect(await eventually { threadsArePolling(mine) }, "the reader should be waiting for its next message")
        consumer.cancel()
        #expect(try await consumer.value == 1)
        #expect(await eventually { updateReaderThreads().isDisjoint(with: mine) })
        // The navigator itself still works.
        #expect(try await navigator.send(.getState).revision == 1)
        navigator.close()
    }

    @Test("closing the navigator ends every iteration; a dropped iterator ends its own")
    func closeAndDropEndTheThreads() async throws {
        let fixture = try NavdOnPrivateBus()
        let navigator = try AsyncNavigator(bus: .address(fixture.bus.address), timeoutMilliseconds: 10_000)
        let before = updateReaderThreads()

        do {
            var dropped = navigator.updates().makeAsyncIterator()
            #expect(try await dropped.next()?.state?.revision == 1)
            let mine = updateReaderThreads().subtracting(before)
            #expect(mine.count == 1)
            #expect(await eventually { threadsArePolling(mine) }, "the reader should be waiting for its next message")
        }
        #expect(await eventually { updateReaderThreads() == before })

        var first = navigator.updates().makeAsyncIterator()
        var second = navigator.updates().makeAsyncIterator()
        #expect(try await first.next()?.state?.revision == 1)
        #expect(try await second.next()?.state?.revision == 1)
        let mine = updateReaderThreads().subtracting(before)
        #expect(mine.count == 2)
        #expect(await eventually { threadsArePolling(mine) }, "the readers should be waiting for their next message")
        navigator.close()
        #expect(try await first.next() == nil)
        #expect(try await second.next() == nil)
        #expect(await eventually { updateReaderThreads() == before })

        var afterClose = navigator.updates().makeAsyncIterator()
        #expect(try await afterClose.next() == nil)
        #expect(updateReaderThreads() == before)
    }

    @Test("the bus going away fails the iteration with unreachable")
    func busGoneFailsTheIteration() async throws {
        let bus = try PrivateBus()
        let peer = try Peer(bus: bus, state: Peer.rainbow(1))
        let navigator = try AsyncNavigator(bus: .address(bus.address), timeoutMilliseconds: 5_000)
        defer { navigator.close() }
        var updates = navigator.updates().makeAsyncIterator()
        #expect(try await updates.next()?.state == Peer.rainbow(1))
        bus.stop()
        do {
            while try await updates.next() != nil {}
            Issue.record("the iteration ended without an error")
        } catch {
            guard case .unreachable = error else { Issue.record("expected unreachable, got \(error)"); return }
        }
        peer.stop()
    }
}

/// The kernel ids of this process' threads named like the update readers.
func updateReaderThreads() -> Set<String> {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(tasks.filter { task in
        let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
        return name?.trimmingCharacters(in: .whitespacesAndNewlines) == "navd-updates"
    })
}

/// Whether every thread of `threads` (kernel ids in this process) is blocked in `poll` (x86_64 system
/// call 7), where a reader waits for its next message: a stop must wake it from there.
func threadsArePolling(_ threads: Set<String>) -> Bool {
    threads.allSatisfy { thread in
        let call = try? String(contentsOfFile: "/proc/self/task/\(thread)/syscall", encoding: .utf8)
        return call?.hasPrefix("7 ") == true
    }
}

/// Polls `condition` every 10 ms for up to `timeout` seconds; whether it came true.
func eventually(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return true
}
