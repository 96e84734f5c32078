/// The snapshot writer's lookups (list cells, stacks, trees, tabs by their list, and the buffers and cells already
/// walked): it looks one up for every element it walks, and with `Dictionary` hashing them (SipHash, seeded per
/// process) was about a quarter of the encoding. The keys are the writer's own table numbers and the addresses of
/// what the state being encoded holds, never a caller's bytes, so a multiplicative hash does.
///
/// Compact, for the memory a document of a deep tree takes while it is written (10,000 screens: 10,000 cells):
/// the keys are held once, in order of insertion (their number is their index), and the open-addressing index over
/// them (linear probing, a power-of-two array, at most 3/4 full) holds 4-byte numbers. A key of two words costs
/// 16 bytes + 5.3 to 10.7 of index, against 32 to 64 for a `Dictionary` from the same key to an `Int` (24-byte
/// buckets, 3/8 to 3/4 full).
struct WordTable<Key: WordTableKey> {
    /// Each slot: 0 empty, else the number of its key + 1.
    private var slots: [Int32]
    /// 64 less the log2 of `slots.count`: a hash's top bits are its slot.
    private var shift: UInt64
    /// The keys, by number.
    private(set) var keys: [Key] = []

    /// The number of keys held.
    var count: Int { keys.count }

    /// A table with room for `capacity` keys before it grows.
    init(capacity: Int = 0) {
        let size = Self.size(for: capacity)
        slots = [Int32](repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        keys.reserveCapacity(capacity)
    }

    /// The smallest power of two, 8 or more, at least 4/3 of `capacity`.
    private static func size(for capacity: Int) -> Int {
        var size = 8
        while 3 * size < 4 * capacity { size *= 2 }
        return size
    }

    /// The number of `key`, if it is held.
    func number(of key: Key) -> Int? { probe(key).number }

    /// The number of `key`, and whether it is new: a new key gets the next number.
    @discardableResult
    mutating func insert(_ key: Key) -> (number: Int, isNew: Bool) {
        if 4 * (keys.count + 1) > 3 * slots.count { rehash(size: 2 * slots.count) }
        // Looked up first and stored after, by subscript: a lookup inside `slots.withUnsafeMutableBufferPointer`
        // retained and released the keys' buffer on every call.
        let (slot, found) = probe(key)
        if let found { return (found, false) }
        let new = keys.count
        precondition(new < Int(Int32.max) - 1, "a WordTable holds fewer than 2^31 - 1 keys")
        slots[slot] = Int32(new + 1)
        keys.append(key)
        return (new, true)
    }

    /// The slot of `key` and its number when it is held, else the empty slot where it goes.
    private func probe(_ key: Key) -> (slot: Int, number: Int?) {
        let mask = slots.count - 1
        return slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys in
                var index = Int(truncatingIfNeeded: key.tableHash >> shift)
                while true {
                    let stored = Int(slots[index])
                    if stored == 0 { return (index, nil) }
                    if keys[stored - 1] == key { return (index, stored - 1) }
                    index = (index + 1) & mask
                }
            }
        }
    }

    /// Makes room for `capacity` keys.
    mutating func reserveCapacity(_ capacity: Int) {
        keys.reserveCapacity(capacity)
        let size = Self.size(for: capacity)
        if size > slots.count { rehash(size: size) }
    }

    /// A new index of `size` slots over the same keys (their numbers stay).
    private mutating func rehash(size: Int) {
        slots = []  // freed before the new one is made
        slots = [Int32](repeating: 0, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        let mask = size - 1
        let shift = shift
        keys.withUnsafeBufferPointer { keys in
            slots.withUnsafeMutableBufferPointer { slots in
                for (number, key) in keys.enumerated() {
                    var index = Int(truncatingIfNeeded: key.tableHash >> shift)
                    while slots[index] != 0 { index = (index + 1) & mask }
                    slots[index] = Int32(number + 1)
                }
            }
        }
    }
}

/// A map from keys to non-negative numbers below 2^31 (list references), on a `WordTable` and a parallel array of
/// values.
struct WordMap<Key: WordTableKey> {
    private var table: WordTable<Key>
    private var values: [Int32] = []

    /// The number of keys held.
    var count: Int { table.count }

    /// A map with room for `capacity` keys before it grows.
    init(capacity: Int = 0) {
        table = WordTable(capacity: capacity)
        values.reserveCapacity(capacity)
    }

    /// The value held for `key`, if any.
    subscript(key: Key) -> Int? {
        table.number(of: key).map { Int(values[$0]) }
    }

    /// Holds `value` for `key`, replacing any.
    mutating func set(_ key: Key, _ value: Int) {
        precondition(value >= 0 && value <= Int(Int32.max), "a WordMap holds numbers from 0 to 2^31 - 1")
        let (number, isNew) = table.insert(key)
        if isNew { values.append(Int32(value)) } else { values[number] = Int32(value) }
    }

    /// The value held for `key`; when there is none, holds and returns `new()`.
    mutating func value(for key: Key, orInsert new: () -> Int) -> Int {
        if let known = self[key] { return known }
        let value = new()
        set(key, value)
        return value
    }

    /// Makes room for `capacity` keys.
    mutating func reserveCapacity(_ capacity: Int) {
        table.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }
}

/// A key of a `WordTable`: one to three machine words, compared whole, hashed by multiplication (the table takes
/// the top bits).
protocol WordTableKey: Equatable {
    var tableHash: UInt64 { get }
}

/// One word: an address (an array's buffer), an object's identity, or a number.
struct WordKey: WordTableKey {
    var a: UInt64

    /// The key of an address.
    static func address(_ pointer: UnsafeRawPointer) -> WordKey { WordKey(a: UInt64(UInt(bitPattern: pointer))) }
    /// The key of an object's identity (held unretained: the writer walks cells the state being encoded keeps alive).
    static func cell<Object: AnyObject>(_ object: Unmanaged<Object>) -> WordKey { WordKey(a: UInt64(UInt(bitPattern: object.toOpaque()))) }

    var tableHash: UInt64 { a &* 0x9E37_79B9_7F4A_7C15 }
}

/// Two words (a list cell: element and list; a stack: style and list).
struct WordPairKey: WordTableKey {
    var a: UInt64
    var b: UInt64

    var tableHash: UInt64 { ((a &* 0x9E37_79B9_7F4A_7C15) ^ b) &* 0xBF58_476D_1CE4_E5B9 }
}

/// Three words (a tree: selection, tabs and flows, and whether it is tabbed).
struct WordTripleKey: WordTableKey {
    var a: UInt64
    var b: UInt64
    var c: UInt64

    var tableHash: UInt64 { ((((a &* 0x9E37_79B9_7F4A_7C15) ^ b) &* 0xBF58_476D_1CE4_E5B9) ^ c) &* 0x94D0_49BB_1331_11EB }
}
