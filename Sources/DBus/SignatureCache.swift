import Synchronization

/// Signature texts libdbus has accepted, so that the few signatures a service sends (body
/// signatures, the types inside its variants) are validated by libdbus once each rather
/// than on every append. Validity depends only on the text, so a remembered answer is as
/// good as a fresh one. Bounded: when full it forgets everything and starts again.
enum SignatureCache {
    /// The most texts each set remembers.
    static let capacity = 512

    private static let sequences = Mutex<Set<String>>([])
    private static let singles = Mutex<Set<String>>([])

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
        _ text: String, in set: borrowing Mutex<Set<String>>, _ validate: (String) throws(DBusError) -> Void
    ) throws(DBusError) {
        if set.withLock({ $0.contains(text) }) { return }
        try validate(text)
        set.withLock { known in
            if known.count >= capacity { known.removeAll(keepingCapacity: true) }
            known.insert(text)
        }
    }
}
