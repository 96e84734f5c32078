/// A map from keys of three machine words to numbers, for the snapshot writer's lookups: it looks up a list cell, a
/// stack, a tree or a buffer for every element it walks, and with `Dictionary` hashing them (SipHash, seeded per
/// process) was about a quarter of the encoding. Open addressing with linear probing over a power-of-two array,
/// a multiplicative hash, at most half full. The keys are the writer's own table numbers and the addresses of what
/// the state being encoded holds, never a caller's bytes.
struct WordTable {
    /// Three words; the writer packs its small structs into them (`SnapshotWriter` builds each kind of key).
    struct Key: Equatable {
        var a: UInt64
        var b: UInt64 = 0
        var c: UInt64 = 0

        /// The key of an address (an array's buffer).
        static func address(_ pointer: UnsafeRawPointer) -> Key { Key(a: UInt64(UInt(bitPattern: pointer))) }
        /// The key of an object's identity.
        static func object(_ object: AnyObject) -> Key { Key(a: UInt64(UInt(bitPattern: ObjectIdentifier(object)))) }
    }

    private struct Slot {
        var key: Key
        /// The value + 1; 0: empty (so that a new array is all zeros).
        var stored: Int
    }

    private var slots: [Slot]
    private var mask: Int
    /// The number of keys held.
    private(set) var count = 0

    /// A table with room for about `capacity` keys before it grows.
    init(capacity: Int = 8) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = Self.emptySlots(size)
        mask = size - 1
    }

    private static func emptySlots(_ size: Int) -> [Slot] {
        [Slot](unsafeUninitializedCapacity: size) { slots, initialized in
            UnsafeMutableRawBufferPointer(slots).initializeMemory(as: UInt8.self, repeating: 0)
            initialized = size
        }
    }

    private static func hash(_ key: Key) -> Int {
        var h = key.a &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ (h >> 29) ^ key.b) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 32) ^ key.c) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h ^ (h >> 31))
    }

    /// The value held for `key`, if any.
    subscript(key: Key) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            var index = Self.hash(key) & mask
            while slots[index].stored != 0 {
                if slots[index].key == key { return slots[index].stored - 1 }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    /// The value held for `key`; when there is none, holds and returns `new()` (a non-negative number).
    mutating func value(for key: Key, orInsert new: () -> Int) -> Int {
        if let known = self[key] { return known }
        let value = new()
        set(key, value)
        return value
    }

    /// Holds `value` (non-negative) for `key`, replacing any.
    mutating func set(_ key: Key, _ value: Int) {
        precondition(value >= 0 && value < .max, "a WordTable holds non-negative numbers")
        if 2 * (count + 1) > slots.count { grow() }
        let mask = mask
        let added = slots.withUnsafeMutableBufferPointer { slots in
            var index = Self.hash(key) & mask
            while slots[index].stored != 0 {
                if slots[index].key == key {
                    slots[index].stored = value + 1
                    return false
                }
                index = (index + 1) & mask
            }
            slots[index] = Slot(key: key, stored: value + 1)
            return true
        }
        if added { count += 1 }
    }

    /// Makes room for at least `capacity` keys.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = slots.count
        while size < 2 * capacity { size *= 2 }
        if size > slots.count { rehash(size: size) }
    }

    private mutating func grow() { rehash(size: 2 * slots.count) }

    private mutating func rehash(size: Int) {
        let old = slots
        slots = Self.emptySlots(size)
        mask = size - 1
        count = 0
        for slot in old where slot.stored != 0 { set(slot.key, slot.stored - 1) }
    }
}
