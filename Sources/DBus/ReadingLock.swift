import Glibc

/// Serialises everything that reads a connection's socket into libdbus' incoming queue or
/// takes messages out of it: `popMessage`, the reading steps of `waitForMessages`, and
/// blocking calls.
///
/// libdbus does not route replies between threads on its own: a thread popping messages
/// could take the reply another thread's blocking call waits for. While a call holds this
/// lock, the loop thread waits at its next step instead, and the call finds its reply.
final class ReadingLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
