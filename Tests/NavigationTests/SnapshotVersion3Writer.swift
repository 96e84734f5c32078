@testable import Navigation

/// The version-3 writer as navd shipped it (each distinct stack buffer written in full), kept in the tests to
/// make version-3 documents, which navd still reads, and to measure what version 4 saves.
extension NavigationState {
    func encodedVersion3Snapshot() -> [UInt8] {
        var trees = Version3TreeWriter()
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
        document.varint(3)
        document.varint(revision)
        document.varint(ids.next)
        document.count(trees.stackCount)
        document.raw(trees.stacks.bytes)
        document.raw(trees.body.bytes)
        return document.bytes
    }
}

/// Writes trees, numbering each distinct stack (by array buffer identity) and writing its screens once.
private struct Version3TreeWriter {
    var stacks = ByteWriter(capacity: 4096)
    var body = ByteWriter(capacity: 1024)
    private(set) var stackCount = 0
    private var indexByBuffer: [UnsafeRawPointer: Int] = [:]

    mutating func write(_ tree: Tree) {
        body.bool(tree.isTabbed)
        body.varint(UInt64(bitPattern: Int64(tree.selected)))
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

    /// The number of `screens`' buffer, writing the screens when the buffer is new.
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
