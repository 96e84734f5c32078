import Glibc

/// Carries one value from the thread that makes it to the task that awaits it, under a pthread
/// mutex.
///
/// Resuming a continuation orders the resumer's writes before the awaiting task's reads, but
/// when the resume comes first (the task has not suspended yet) the Swift runtime takes a fast
/// path that ThreadSanitizer is not told about, and it reports the reply `Message` as raced on.
/// Handing the value over through a lock it can see makes the order explicit, at the cost of
/// one uncontended lock per async call.
final class Handoff<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value?

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Stores `value` for `take()`; call before resuming the awaiting task.
    func put(_ value: Value) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        self.value = value
    }

    /// The value `put` stored (nil if none was); call after the task resumed.
    func take() -> Value? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return value
    }
}
