extension AsyncNavigator {
    /// navd's state and its comings and goings, resynchronised like navwatch: see `NavigatorUpdates`.
    public func updates() -> NavigatorUpdates {
        NavigatorUpdates(navigator: self)
    }

    /// Just the states of `updates()`: the one to draw screens from. It starts with the state
    /// navd has now (as soon as navd is there), never yields a state older than one before it,
    /// and picks up again after a missed signal or a navd restart.
    public func states() -> AsyncCompactMapSequence<NavigatorUpdates, VisibleState> {
        updates().compactMap(\.state)
    }

    /// Starts a reader for one iteration, unless the navigator is closed (then the stream is finished).
    func startReader(_ continuation: UpdateReader.Stream.Continuation) -> UpdateReader {
        let reader = UpdateReader(bus: bus, app: app, timeoutMilliseconds: timeoutMilliseconds, continuation: continuation) {
            [self] reader in
            readers.withLock { _ = $0.running.removeValue(forKey: ObjectIdentifier(reader)) }
        }
        let registered = readers.withLock { registry in
            if registry.closed { return false }
            registry.running[ObjectIdentifier(reader)] = reader
            return true
        }
        if registered {
            reader.start()
        } else {
            continuation.finish()
        }
        return reader
    }
}

/// navd's updates as an `AsyncSequence` (`AsyncNavigator.updates()`).
///
/// Each iteration runs one thread of its own with a connection of its own: it subscribes to the
/// navigator's `StackChanged` (from its own path only) and navd's `NameOwnerChanged` (for an app,
/// also the apps coming and going), then yields the current state (or `.navdGone`),
/// then every change in order, by `FollowRules` (navwatch's rules, written once): a missed signal
/// (a revision gap) is made up with `GetState`; when navd restarts, its start-up state (cause `start`
/// or `restore`) is the new baseline, and without that signal a `GetState` half a second after navd's
/// name came back serves as one; a state identical to the last one yielded is not yielded again. An app
/// that goes (its route file removed) is `.navdGone` like navd leaving, and comes back the same way.
/// Updates wait, unbounded, until the consumer takes them.
///
/// The iteration ends, and its thread and connection with it, when the consuming task is
/// cancelled, when the iterator is dropped, or when the navigator is closed (then `next()`
/// returns nil). It fails with `.unreachable` when the bus cannot be reached or goes away.
public struct NavigatorUpdates: AsyncSequence, Sendable {
    /// Each step: a state (with its cause) or navd going away.
    public typealias Element = NavigatorUpdate
    /// The only failure: the bus cannot be reached or went away.
    public typealias Failure = NavigatorError

    let navigator: AsyncNavigator

    /// Starts the iteration's reader thread.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = UpdateReader.Stream.makeStream()
        let reader = navigator.startReader(continuation)
        continuation.onTermination = { _ in reader.stop() }
        return Iterator(base: stream.makeAsyncIterator(), stopper: ReaderStopper(reader: reader))
    }

    /// Reads one iteration's updates.
    public struct Iterator: AsyncIteratorProtocol {
        var base: UpdateReader.Stream.AsyncIterator
        let stopper: ReaderStopper

        /// The next update, nil once the iteration ended (cancelled, or the navigator closed).
        public mutating func next() async throws(NavigatorError) -> NavigatorUpdate? {
            do {
                return try await base.next()
            } catch {
                throw Self.typed(error)
            }
        }

        /// The next update, awaited in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NavigatorError) -> NavigatorUpdate? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw Self.typed(error)
            }
        }

        private static func typed(_ error: any Error) -> NavigatorError {
            (error as? NavigatorError)
                ?? .unexpectedReply(method: Navigator.stackChanged.name, expected: "an update", received: "\(error)")
        }
    }
}

/// Stops a reader when the last copy of its iterator is gone, so a dropped iterator leaves no thread behind.
final class ReaderStopper: Sendable {
    let reader: UpdateReader

    init(reader: UpdateReader) { self.reader = reader }

    deinit { reader.stop() }
}
