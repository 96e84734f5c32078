import Synchronization

/// Carries one value from the thread that makes it to the task that awaits it, under a mutex.
///
/// Resuming a continuation orders the resumer's writes before the awaiting task's reads, but
/// when the resume comes first (the task has not suspended yet) the Swift runtime takes a fast
/// path that ThreadSanitizer is not told about, and it reports the reply `Message` as raced on.
/// Handing the value over through a lock it can see makes the order explicit, at the cost of
/// one uncontended lock per async call.
final class Handoff<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    init() {}

    /// Stores `value` for `take()`; call before resuming the awaiting task.
    func put(_ value: Value) {
        self.value.withLock { $0 = value }
    }

    /// The value `put` stored (nil if none was); call after the task resumed.
    func take() -> Value? {
        value.withLock { stored in
            let taken = stored
            stored = nil
            return taken
        }
    }
}
