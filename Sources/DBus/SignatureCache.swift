/// Signature texts libdbus has accepted, so that the few signatures a service sends (body
/// signatures, the types inside its variants) are validated by libdbus once each rather
/// than on every append. Validity depends only on the text, so a remembered answer is as
/// good as a fresh one. Bounded: when full it forgets everything and starts again.
///
/// Every thread that builds a message passes here, so the sets are behind `PThreadMutex`
/// rather than `Synchronization.Mutex`, whose contended hand-over ThreadSanitizer cannot see
/// (it reported this cache's insert as a race although the mutex excluded the threads).
enum SignatureCache {
    /// The most texts each set remembers.
    static let capacity = 512

    private static let sequences = PThreadMutex<Set<String>>([])
    private static let singles = PThreadMutex<Set<String>>([])

    /// Throws `InvalidArgs` unless `text` is a valid sequence of complete types.
    static func validate(_ text: String) throws(DBusError) {
        try remembering(text, in: sequences) { t throws(DBusError) in try Validate.signature(t) }
    }

    /// Throws `InvalidArgs` unless `text` is exactly one valid complete type.
    static func validateSingle(_ text: String) throws(DBusError) {
        try remembering(text, in: singles) { t throws(DBusError) in try Validate.singleSignature(t) }
    }

    /// Whether `text` is remembered as valid in either set (for tests).
    static func remembers(_ text: String) -> Bool {
        sequences.withLock { $0.contains(text) } || singles.withLock { $0.contains(text) }
    }

    private static func remembering(
        _ text: String, in set: PThreadMutex<Set<String>>, _ validate: (String) throws(DBusError) -> Void
    ) throws(DBusError) {
        if set.withLock({ $0.contains(text) }) { return }
        try validate(text)
        set.withLock { known in
            if known.count >= capacity { known.removeAll(keepingCapacity: true) }
            known.insert(text)
        }
    }
}
