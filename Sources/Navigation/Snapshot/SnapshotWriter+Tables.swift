// The snapshot writer's tables: each entry written once, numbered in order of first use.

extension SnapshotWriter {
    /// A table whose entries are written once each, numbered in order of first use.
    struct Table<Key: Hashable> {
        var bytes = ByteWriter(capacity: 1024)
        var index: [Key: Int] = [:]

        /// The entry's number, calling `write` with the table's bytes when it is new.
        mutating func number(_ key: Key, write: (inout ByteWriter) -> Void) -> Int {
            if let known = index[key] { return known }
            let number = index.count
            index[key] = number
            write(&bytes)
            return number
        }
    }

    /// `Table` for keys of words (list cells, stacks, trees: `WordTable`, no SipHash).
    struct KeyedTable<Key: WordTableKey> {
        var bytes = ByteWriter(capacity: 1024)
        var index = WordTable<Key>()
        var count: Int { index.count }

        /// The entry's number, calling `write` with the table's bytes when it is new.
        mutating func number(_ key: Key, write: (inout ByteWriter) -> Void) -> Int {
            let (number, isNew) = index.insert(key)
            if isNew { write(&bytes) }
            return number
        }
    }

    /// The tabs table: a tab is looked up by its list of stacks, then told apart by name and id (compared, not
    /// hashed: a state has a few tabs, and each step repeats their names).
    struct TabTable {
        var bytes = ByteWriter(capacity: 256)
        /// The newest entry of each list reference.
        private var byList = WordMap<WordKey>()
        /// Each entry's name, id and the entry before it with the same list (-1: none), by number.
        private var entries: [(name: String, id: String, sameList: Int)] = []
        var count: Int { entries.count }

        mutating func reserveCapacity(_ capacity: Int) {
            byList.reserveCapacity(capacity)
            entries.reserveCapacity(capacity)
        }

        /// The entry's number, written when it is new.
        mutating func number(_ entry: Tab) -> Int {
            let key = WordKey(a: UInt64(entry.list))
            let newest = byList[key]
            var candidate = newest ?? -1
            while candidate >= 0 {
                if entries[candidate].name == entry.name && entries[candidate].id == entry.id { return candidate }
                candidate = entries[candidate].sameList
            }
            entries.append((entry.name, entry.id, newest ?? -1))
            byList.set(key, entries.count - 1)
            bytes.string(entry.name)
            bytes.string(entry.id)
            bytes.count(entry.list)
            return entries.count - 1
        }
    }

    /// Values numbered by id and compared whole (hashing a screen would hash its params): a value equal to one
    /// seen before gets that one's number. Ids are never reused, so an id has one value in any state the model
    /// made; any state is still written exactly.
    struct IdTable<Value: Equatable> {
        var count = 0
        var byId: [String: [(number: Int, value: Value)]] = [:]

        /// The value's number, and whether it is new.
        mutating func number(_ value: Value, id: String) -> (number: Int, isNew: Bool) {
            if let known = byId[id]?.first(where: { $0.value == value }) { return (known.number, false) }
            byId[id, default: []].append((count, value))
            count += 1
            return (count - 1, true)
        }
    }
}
