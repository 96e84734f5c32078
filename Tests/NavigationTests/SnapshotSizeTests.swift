import Testing
@testable import Navigation
import RouteFiles

/// The saved state grew with (tree size × undo steps): version 3 wrote every stack buffer in full, and a push or
/// pop makes a new buffer, so 120 screens with a 4 KB param and 150 pop/push pairs took tens of MiB, and params at
/// their limit passed SQLite's 1 GB blob limit. Version 4 stores a screen once however many steps hold it.
@Suite(.timeLimit(.minutes(3)))
struct SnapshotSizeTests {
    /// One stack of pages, with the default limits (path and stack 128, 64 KiB params a call, max-undo 100).
    static func graph() throws -> RouteGraph {
        try RouteGraph.load(yaml: "root: home\nroutes:\n  home: {}\n  page: { params: { body: string } }\n", file: "size.yaml")
    }

    /// The longest body one call may carry under the default limits.
    static let largestBody = Limits().maxParamsBytes - InputValue.estimatedEncodedSize(of: ["body": .string("")])

    /// `pages` pushed pages whose body holds `bodyBytes` bytes, then `pairs` pop/push pairs (new pages, new bodies).
    static func build(pages: Int, bodyBytes: Int, pairs: Int) throws -> Coordinator {
        var coordinator = Coordinator(graph: try graph())
        var pushed = 0
        func pushPage() throws {
            pushed += 1
            let tag = "\(pushed):"
            let body = tag + String(repeating: "x", count: max(0, bodyBytes - tag.utf8.count))
            _ = try coordinator.perform(.push(route: "page", params: ["body": .string(body)]), at: Int64(pushed))
        }
        for _ in 0..<pages { try pushPage() }
        for _ in 0..<pairs {
            _ = try coordinator.perform(.pop, at: 0)
            try pushPage()
        }
        return coordinator
    }

    /// The bytes a screen takes written out (id, route, params).
    static func bytes(of screen: Screen) -> Int {
        var writer = ByteWriter()
        writer.string(screen.id); writer.string(screen.route); writer.params(screen.params)
        return writer.bytes.count
    }

    /// The live tree, then the undo and redo trees and the kept revisions' trees (docs/devtools.md), made whole.
    static func trees(_ state: NavigationState) -> [Tree] {
        arrayTrees(state) + state.history.all.compactMap(\.after?.state.tree)
    }

    /// The trees a state holds as arrays: all but the history steps' (which hold theirs as list cells).
    static func arrayTrees(_ state: NavigationState) -> [Tree] {
        [state.tree] + state.undo.all + state.redo.all + [state.base?.state.tree].compactMap { $0 }
    }

    static func screens(_ tree: Tree) -> [Screen] { tree.tabs.flatMap { $0.layers.flatMap(\.screens) } }

    /// What `docs/durability.md#bounded-saved-state` allows: the live tree's screens, the screens the kept steps hold that it does not (each
    /// once), and a small constant per step and history entry.
    static func bound(_ state: NavigationState) -> Int {
        let live = screens(state.tree)
        var seen = Set(live.map(\.id))
        var changed = 0
        for tree in trees(state).dropFirst() {
            for screen in screens(tree) where seen.insert(screen.id).inserted { changed += bytes(of: screen) }
        }
        let steps = state.undo.count + state.redo.count
        return live.reduce(0) { $0 + bytes(of: $1) } + changed + 64 * (steps + state.history.count + 1) + 1024
    }

    /// The screens of every distinct stack buffer of every tree of `state`, each buffer once (stacks that
    /// share their storage, as memory shares it, counted once).
    static func distinctStacks(_ state: NavigationState) -> [[Screen]] {
        var buffers: Set<UnsafeRawPointer> = []
        var stacks: [[Screen]] = []
        for tree in arrayTrees(state) {
            for tab in tree.tabs {
                for frame in tab.layers {
                    guard let buffer = frame.screens.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) }),
                        buffers.insert(buffer).inserted else { continue }
                    stacks.append(frame.screens)
                }
            }
        }
        return stacks
    }

    /// The screen bytes version 3 wrote: every distinct stack buffer in full (a lower bound of its size).
    static func version3ScreenBytes(_ state: NavigationState) -> Int {
        distinctStacks(state).reduce(0) { total, screens in screens.reduce(total) { $0 + bytes(of: $1) } }
    }

    /// The heap a state holds, approximately: each distinct stack array (its screens' inline part), each list
    /// cell the history steps hold, and each distinct param string storage once, as memory shares them.
    static func heapBytes(_ state: NavigationState) -> Int {
        var strings: Set<UnsafeRawPointer> = []
        var total = KeptState.cellCount(state.history.all.compactMap(\.after)) * (32 + MemoryLayout<Screen>.stride)
        for screens in distinctStacks(state) {
            total += 32 + screens.count * MemoryLayout<Screen>.stride
            for screen in screens {
                for case .string(var text) in screen.params.values where text.utf8.count > 15 {
                    let storage = text.withUTF8 { $0.baseAddress.map(UnsafeRawPointer.init) }
                    if let storage, strings.insert(storage).inserted { total += 32 + text.utf8.count }
                }
            }
        }
        return total
    }

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    /// 150 pairs as found, and 91: 301 changes, when max-undo 100 keeps its most steps (200; 201 trims to 100).
    @Test(arguments: [150, 91]) func pushPopPairsOnABigStackAddOnlyTheScreensTheyPush(pairs: Int) throws {
        let coordinator = try Self.build(pages: 119, bodyBytes: 4096, pairs: pairs)
        let state = coordinator.state
        #expect(coordinator.depth == 120 && state.undo.count >= 100)
        let document = state.encodedSnapshot()
        let version3 = Self.version3ScreenBytes(state)
        let decoded = try NavigationState.decodeSnapshot(document)
        #expect(decoded == state)
        let bound = Self.bound(state)
        print("120 screens × 4 KiB, \(pairs) pop/push pairs, \(state.undo.count) undo steps: snapshot version 3 ≥ \(Self.mebibytes(version3)), version 4 \(Self.mebibytes(document.count)) (\(document.count) B, bound \(bound) B); decoded heap ≈ version 4 \(Self.mebibytes(Self.heapBytes(decoded))), live \(Self.mebibytes(Self.heapBytes(state)))")
        #expect(document.count <= bound)
        #expect(version3 > 10 * bound)
        #expect(Self.heapBytes(decoded) <= bound + (state.undo.count + state.history.count) * 128 * MemoryLayout<Screen>.stride)
        // Compared as a Bool: a failed comparison of two multi-MiB arrays would be diffed for the report.
        let sameDocument = decoded.encodedSnapshot() == document
        #expect(sameDocument, "re-encoding a decoded state gives another document")
    }

    /// 150 pairs, and 87: 301 changes, the most undo steps kept.
    @Test(arguments: [150, 87]) func paramsAtTheirLimitStayFarBelowSQLitesBlobLimit(pairs: Int) throws {
        let coordinator = try Self.build(pages: 127, bodyBytes: Self.largestBody, pairs: pairs)
        let state = coordinator.state
        #expect(coordinator.depth == 128 && state.undo.count >= 100)
        var refused = coordinator
        #expect(throws: NavigationError.self) { try refused.perform(.push(route: "page", params: ["body": .string(String(repeating: "x", count: Self.largestBody + 1))]), at: 0) }
        let document = state.encodedSnapshot()
        let decoded = try NavigationState.decodeSnapshot(document)
        #expect(decoded == state)
        let bound = Self.bound(state)
        let version3 = Self.version3ScreenBytes(state)
        print("128 screens × \(Self.largestBody) B, \(pairs) pop/push pairs, \(state.undo.count) undo steps: snapshot version 3 ≥ \(Self.mebibytes(version3)), version 4 \(Self.mebibytes(document.count)) (\(document.count) B, bound \(bound) B); decoded heap ≈ version 4 \(Self.mebibytes(Self.heapBytes(decoded))), live \(Self.mebibytes(Self.heapBytes(state)))")
        #expect(document.count <= bound)
        #expect(version3 > 1_000_000_000)  // what version 3 wrote: past SQLite's default blob limit
        #expect(Self.heapBytes(decoded) <= bound + (state.undo.count + state.history.count) * 128 * MemoryLayout<Screen>.stride)
    }

    @Test func encodingTimeForA128ScreenTreeWith100UndoSteps() throws {
        let coordinator = try Self.build(pages: 127, bodyBytes: 64, pairs: 50)
        let state = coordinator.state
        let clock = ContinuousClock()
        var size = 0
        let version4 = clock.measure { for _ in 0..<10 { size = state.encodedSnapshot().count } }
        let decode = clock.measure { for _ in 0..<10 { _ = try? NavigationState.decodeSnapshot(state.encodedSnapshot()) } }
        print("128 screens, \(state.undo.count) undo steps (debug build): encode version 4 \(version4 / 10) (\(size) B, version 3 wrote ≥ \(Self.version3ScreenBytes(state)) B); encode + decode \(decode / 10)")
        #expect(size < Self.version3ScreenBytes(state) && size <= Self.bound(state))
    }
}
