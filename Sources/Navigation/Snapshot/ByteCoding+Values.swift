// Binary forms of values and operations, shared by snapshots (versions 4 and 5) and journal records (version 3).
//
// ParamValue: tag byte 0 string, 1 int (zigzag), 2 double (bits), 3 bool.
// InputValue: tag byte 0 string, 1 bool, 2 int, 3 uint, 4 double, 5 list, 6 record, 7 map, 8 variant, 9 other.
// Dictionaries: count, then (key, value) pairs in ascending key order, so equal values encode equally.
// Operation: its tag byte, then its arguments (written beside the operation, in Model/Operation.swift).

/// How deep decoded input values may nest (D-Bus allows 64 levels; deeper bytes are corrupt).
let maxDecodedNesting = 256

extension ByteWriter {
    mutating func paramValue(_ value: ParamValue) {
        switch value {
        case .string(let text): byte(0); string(text)
        case .int(let number): byte(1); signed(number)
        case .double(let number): byte(2); double(number)
        case .bool(let flag): byte(3); bool(flag)
        }
    }

    mutating func params(_ params: [String: ParamValue]) {
        dictionary(params) { writer, value in writer.paramValue(value) }
    }

    mutating func inputValue(_ value: InputValue) {
        switch value {
        case .string(let text): byte(0); string(text)
        case .bool(let flag): byte(1); bool(flag)
        case .int(let number): byte(2); signed(number)
        case .uint(let number): byte(3); varint(number)
        case .double(let number): byte(4); double(number)
        case .list(let items): byte(5); count(items.count); for item in items { inputValue(item) }
        case .record(let items): byte(6); count(items.count); for item in items { inputValue(item) }
        case .map(let entries): byte(7); inputParams(entries)
        case .variant(let inner): byte(8); inputValue(inner)
        case .other(let signature): byte(9); string(signature)
        }
    }

    mutating func inputParams(_ params: [String: InputValue]) {
        dictionary(params) { writer, value in writer.inputValue(value) }
    }

    /// The count, then each key and its value (written by `value`) in ascending key order; a single
    /// entry needs no sorting. Params, input params, templates and on-output handlers are all written so.
    mutating func dictionary<Value>(_ entries: [String: Value], _ value: (inout ByteWriter, Value) -> Void) {
        count(entries.count)
        if entries.count == 1, let (key, only) = entries.first {
            string(key); value(&self, only)
            return
        }
        for (key, each) in entries.sorted(by: { $0.key < $1.key }) { string(key); value(&self, each) }
    }
}

extension ByteReader {
    mutating func paramValue() throws(SnapshotError) -> ParamValue {
        switch try byte() {
        case 0: return .string(try string())
        case 1: return .int(try signed())
        case 2: return .double(try double())
        case 3: return .bool(try bool())
        case let tag: throw corrupt("unknown param value tag \(tag)")
        }
    }

    mutating func params() throws(SnapshotError) -> [String: ParamValue] {
        try dictionary(of: "param") { reader throws(SnapshotError) in try reader.paramValue() }
    }

    mutating func inputValue(depth: Int = 0) throws(SnapshotError) -> InputValue {
        guard depth < maxDecodedNesting else { throw corrupt("values nest deeper than \(maxDecodedNesting) levels") }
        switch try byte() {
        case 0: return .string(try string())
        case 1: return .bool(try bool())
        case 2: return .int(try signed())
        case 3: return .uint(try varint())
        case 4: return .double(try double())
        case 5: return .list(try inputList(depth: depth + 1))
        case 6: return .record(try inputList(depth: depth + 1))
        case 7: return .map(try inputParams(depth: depth + 1))
        case 8: return .variant(try inputValue(depth: depth + 1))
        case 9: return .other(try string())
        case let tag: throw corrupt("unknown input value tag \(tag)")
        }
    }

    mutating func inputList(depth: Int) throws(SnapshotError) -> [InputValue] {
        let count = try count()
        var items: [InputValue] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try inputValue(depth: depth)) }
        return items
    }

    mutating func inputParams(depth: Int = 0) throws(SnapshotError) -> [String: InputValue] {
        try dictionary(of: "key") { reader throws(SnapshotError) in try reader.inputValue(depth: depth) }
    }

    /// What `ByteWriter`'s dictionaries write: the count, then each key and its value (read by `value`);
    /// a key that appears twice is corrupt (`what` names the keys in that reason).
    private mutating func dictionary<Value>(
        of what: String, _ value: (inout ByteReader) throws(SnapshotError) -> Value
    ) throws(SnapshotError) -> [String: Value] {
        let count = try count()
        var entries: [String: Value] = [:]
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let key = try string()
            guard entries.updateValue(try value(&self), forKey: key) == nil else { throw corrupt("\(what) '\(key)' appears twice") }
        }
        return entries
    }
}
