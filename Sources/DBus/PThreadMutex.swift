#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value shared between threads behind a `pthread_mutex_t`: the lock to use where
/// ThreadSanitizer must follow the hand-over (`make check-long`).
///
/// `Synchronization.Mutex` is correct, but on Linux a contended `Mutex` is handed from thread to
/// thread inside the kernel (`FUTEX_LOCK_PI`/`FUTEX_UNLOCK_PI`, in libswiftSynchronization, which
/// is not instrumented), so ThreadSanitizer sees no order between the two threads' accesses and
/// reports them as a "Swift access race". It intercepts `pthread_mutex_lock`/`unlock`, so under
/// this lock a real race (an access outside it) is still reported and a correct one is not.
/// `Tests/Scripts/tsan-mutex-repro.sh` shows both.
public final class PThreadMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock over `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held; the lock is released however `body` ends.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
