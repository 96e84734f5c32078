// Snapshot format version 3, binary (primitives as in ByteWriter, values as in ByteCoding+Values.swift and
// ByteCoding+Flows.swift):
//
//   magic "NVDS" (4 bytes), varint version (3), varint revision, varint next id,
//   varint stack count, then per stack: varint screen count, then per screen: string id, string route, params,
//   the current tree, varint undo count + trees (newest first), varint redo count + trees (newest first),
//   varint history count, then per entry (newest first): varint revision, string cause, zigzag time,
//   then the facts (params).
//
//   A tree: bool tabbed, varint selected, varint tab count, then per tab: string name, string id,
//   varint layer count, then per layer: style byte (0 root, 1 push, 2 sheet, 3 cover), varint stack index;
//   then varint flow instance count and the instances, by first screen id.
//
// Version 2 (still read) is the same without the trees' flow instances and the facts.
//
// Stacks are numbered by first use, in the order trees are written; a stack shared in memory (the same
// array buffer, as copy-on-write leaves every stack an undo step did not touch) is written once.

extension NavigationState {
    static let snapshotMagic: [UInt8] = Array("NVDS".utf8)

    func encodedSnapshotDocument() -> [UInt8] {
        var trees = SnapshotTreeWriter()
        trees.write(tree)
        let undoTrees = undo.all, redoTrees = redo.all
        trees.body.count(undoTrees.count)
        for tree in undoTrees { trees.write(tree) }
        trees.body.count(redoTrees.count)
        for tree in redoTrees { trees.write(tree) }
        let entries = history.all
        trees.body.count(entries.count)
        for entry in entries {
            trees.body.varint(entry.revision)
            trees.body.string(entry.cause)
            trees.body.signed(entry.time)
        }
        trees.body.params(facts)
        var document = ByteWriter(capacity: 32 + trees.stacks.bytes.count + trees.body.bytes.count)
        document.raw(Self.snapshotMagic)
        document.varint(UInt64(Self.snapshotVersion))
        document.varint(revision)
        document.varint(ids.next)
        document.count(trees.stackCount)
        document.raw(trees.stacks.bytes)
        document.raw(trees.body.bytes)
        return document.bytes
    }

    static func decodeSnapshotDocument(_ bytes: [UInt8]) throws(SnapshotError) -> NavigationState {
        var reader = ByteReader(bytes)
        guard reader.expect(snapshotMagic) else { throw .corrupt("not a navd state snapshot (no 'NVDS' magic)") }
        let version = try reader.varint()
        guard version == 2 || version == UInt64(snapshotVersion) else {
            throw .unsupportedVersion(found: Int(clamping: version), supported: snapshotVersion)
        }
        let hasFlows = version >= 3
        let revision = try reader.varint()
        let nextId = try reader.varint()
        try checkCounters(revision: revision, nextId: nextId)
        var stacks = try SnapshotStacks(reading: &reader)
        let current = try stacks.readTree(from: &reader, nextId: nextId, label: "tree", flows: hasFlows)
        var undoTrees: [Tree] = []
        for _ in 0..<(try reader.count()) { undoTrees.append(try stacks.readTree(from: &reader, nextId: nextId, label: "an undo/redo tree", flows: hasFlows)) }
        var redoTrees: [Tree] = []
        for _ in 0..<(try reader.count()) { redoTrees.append(try stacks.readTree(from: &reader, nextId: nextId, label: "an undo/redo tree", flows: hasFlows)) }
        var entries: [HistoryEntry] = []
        for _ in 0..<(try reader.count()) {
            entries.append(HistoryEntry(revision: try reader.varint(), cause: try reader.string(), time: try reader.signed()))
        }
        let facts = hasFlows ? try reader.params() : [:]
        guard reader.isAtEnd else { throw reader.corrupt("unexpected bytes after the snapshot") }
        var state = NavigationState(tree: current, revision: revision, ids: IdCounter(next: nextId))
        state.facts = facts
        state.undo = BoundedStack(newestFirst: undoTrees)
        state.redo = BoundedStack(newestFirst: redoTrees)
        state.history = BoundedStack(newestFirst: entries)
        return state
    }
}

/// Writes trees, numbering each distinct stack (by array buffer identity) and writing its screens once.
private struct SnapshotTreeWriter {
    var stacks = ByteWriter(capacity: 4096)
    var body = ByteWriter(capacity: 1024)
    private(set) var stackCount = 0
    private var indexByBuffer: [UnsafeRawPointer: Int] = [:]

    mutating func write(_ tree: Tree) {
        body.bool(tree.isTabbed)
        body.varint(UInt64(bitPattern: Int64(tree.selected)))  // a negative index reads back as out of range
        body.count(tree.tabs.count)
        for tab in tree.tabs {
            body.string(tab.name)
            body.string(tab.id)
            body.count(tab.layers.count)
            for frame in tab.layers {
                body.byte(frame.style.code)
                body.count(stackIndex(frame.screens))
            }
        }
        body.count(tree.flows.count)
        for (_, instance) in tree.flows.sorted(by: { $0.key < $1.key }) { body.flowInstance(instance) }
    }

    /// The number of `screens`' buffer, writing the screens when the buffer is new. The pointers are only
    /// compared while the state being encoded keeps every buffer alive.
    private mutating func stackIndex(_ screens: [Screen]) -> Int {
        let buffer = screens.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        if let buffer, let index = indexByBuffer[buffer] { return index }
        let index = stackCount
        stackCount += 1
        if let buffer { indexByBuffer[buffer] = index }
        stacks.count(screens.count)
        for screen in screens {
            stacks.string(screen.id)
            stacks.string(screen.route)
            stacks.params(screen.params)
        }
        return index
    }
}

extension Presentation {
    /// The style byte of snapshot version 2.
    var code: UInt8 {
        switch self {
        case .root: 0
        case .push: 1
        case .sheet: 2
        case .cover: 3
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .root
        case 1: self = .push
        case 2: self = .sheet
        case 3: self = .cover
        default: return nil
        }
    }
}
