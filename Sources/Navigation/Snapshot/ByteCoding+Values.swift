// Binary forms of values and operations, shared by snapshots (versions 4 and 5) and journal records (version 3).
//
// ParamValue: tag byte 0 string, 1 int (zigzag), 2 double (bits), 3 bool.
// InputValue: tag byte 0 string, 1 bool, 2 int, 3 uint, 4 double, 5 list, 6 record, 7 map, 8 variant, 9 other.
// Dictionaries: count, then (key, value) pairs in ascending key order, so equal values encode equally.
// Operation: tag byte in declaration order (0 push … 15 reconcile, 16 send … 19 setfacts, 20 revert), then its arguments
// in declaration order.

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
    /// entry needs no sorting.
    private mutating func dictionary<Value>(_ entries: [String: Value], _ value: (inout ByteWriter, Value) -> Void) {
        count(entries.count)
        if entries.count == 1, let (key, only) = entries.first {
            string(key); value(&self, only)
            return
        }
        for (key, each) in entries.sorted(by: { $0.key < $1.key }) { string(key); value(&self, each) }
    }

    mutating func operation(_ op: Operation) {
        switch op {
        case .push(let route, let params): byte(0); string(route); inputParams(params)
        case .pop: byte(1)
        case .popTo(let target): byte(2); string(target)
        case .popToRoot: byte(3)
        case .replace(let route, let params): byte(4); string(route); inputParams(params)
        case .setStack(let screens):
            byte(5); count(screens.count)
            for screen in screens { string(screen.route); inputParams(screen.params) }
        case .present(let route, let params, let style): byte(6); string(route); inputParams(params); string(style)
        case .dismiss: byte(7)
        case .dismissAll: byte(8)
        case .back: byte(9)
        case .selectTab(let tab): byte(10); string(tab)
        case .open(let target): byte(11); string(target)
        case .apply(let ops, let expectedRevision):
            byte(12); count(ops.count)
            for raw in ops { string(raw.name); inputParams(raw.arguments) }
            varint(expectedRevision)
        case .undo: byte(13)
        case .redo: byte(14)
        case .reconcile: byte(15)
        case .send(let source, let event, let params, let expectedRevision):
            byte(16); string(source); string(event); inputParams(params); varint(expectedRevision)
        case .start(let flow, let params): byte(17); string(flow); inputParams(params)
        case .finish(let output, let params): byte(18); string(output); inputParams(params)
        case .setFacts(let facts): byte(19); inputParams(facts)
        case .revert(let revision, let expectedRevision): byte(20); varint(revision); varint(expectedRevision)
        }
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

    mutating func operation() throws(SnapshotError) -> Operation {
        switch try byte() {
        case 0: return .push(route: try string(), params: try inputParams())
        case 1: return .pop
        case 2: return .popTo(target: try string())
        case 3: return .popToRoot
        case 4: return .replace(route: try string(), params: try inputParams())
        case 5:
            let count = try count()
            var screens: [ScreenRequest] = []
            screens.reserveCapacity(count)
            for _ in 0..<count { screens.append(ScreenRequest(route: try string(), params: try inputParams())) }
            return .setStack(screens)
        case 6: return .present(route: try string(), params: try inputParams(), style: try string())
        case 7: return .dismiss
        case 8: return .dismissAll
        case 9: return .back
        case 10: return .selectTab(try string())
        case 11: return .open(try string())
        case 12:
            let count = try count()
            var ops: [RawOperation] = []
            ops.reserveCapacity(count)
            for _ in 0..<count { ops.append(RawOperation(name: try string(), arguments: try inputParams())) }
            return .apply(ops, expectedRevision: try varint())
        case 13: return .undo
        case 14: return .redo
        case 15: return .reconcile
        case 16: return .send(source: try string(), event: try string(), params: try inputParams(), expectedRevision: try varint())
        case 17: return .start(flow: try string(), params: try inputParams())
        case 18: return .finish(output: try string(), params: try inputParams())
        case 19: return .setFacts(try inputParams())
        case 20: return .revert(revision: try varint(), expectedRevision: try varint())
        case let tag: throw corrupt("unknown operation tag \(tag)")
        }
    }
}
