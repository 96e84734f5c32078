import PropertyBased
import Testing
@testable import Navigation
import RouteFiles

/// Random operation sequences on the demo graph with small limits, so limits, trimming and every error occur.
@Suite(.timeLimit(.minutes(2)))
struct PropertyTests {
    static let graph: RouteGraph = {
        var graph = RouteGraph.demo
        graph.limits = Limits([.maxPathDepth: 8, .maxStackDepth: 6, .maxParamsBytes: 256, .maxApplyOps: 3, .maxStringBytes: 64, .maxUndo: 4, .maxHistory: 6])
        return graph
    }()

    static let routes = ["red", "orange", "purple", "news-item", "login", "modal", "settings", "nope", "forgot-password"]
    static let targets = ["red", "orange", "modal", "login", "#2", "#7", "#9", "#12", "nope", "news-item", String(repeating: "long", count: 20)]
    static let links = ["root", "end", "/news/5", "/rainbow/orange/yellow", "/profile/settings", "/bad//x", "/news/abc", "/shop", "navd:/news/news-item;id=3", "/profile/login", "/rainbow//x", "nowhere", "/rainbow/orange/orange/orange/orange/orange/orange"]
    static let tabNames = ["rainbow", "news", "profile", "shop"]

    static func params(for route: String, _ code: Int) -> InputParams {
        guard route == "news-item" else { return code % 7 == 0 ? ["x": .int(1)] : [:] }
        switch code % 5 {
        case 0: return [:]
        case 1: return ["id": .string("1")]
        default: return ["id": .int(Int64(code % 50))]
        }
    }

    /// The operation a random code stands for.
    static func operation(_ code: Int, nested: Bool = false) -> Navigation.Operation {
        let pick = code / 17
        let route = routes[pick % routes.count]
        switch code % 17 {
        case 0, 1: return .push(route: route, params: params(for: route, pick))
        case 2: return .pop
        case 3: return .popTo(target: targets[pick % targets.count])
        case 4: return .popToRoot
        case 5: return .replace(route: route, params: params(for: route, pick))
        case 6:
            let count = pick % 4
            return .setStack((0..<count).map { routes[($0 + pick) % routes.count] }.map { ScreenRequest(route: $0, params: params(for: $0, pick)) })
        case 7: return .present(route: route, params: params(for: route, pick), style: ["sheet", "cover", "bogus"][pick % 3])
        case 8: return .dismiss
        case 9: return .dismissAll
        case 10: return .back
        case 11: return .selectTab(tabNames[pick % tabNames.count])
        case 12: return .open(links[pick % links.count])
        case 13 where !nested:
            let raws = [pick % 97, pick % 89 + 3].map { rawOperation(operation($0, nested: true)) }
            return .apply(raws, expectedRevision: pick % 3 == 0 ? UInt64(pick % 5) : 0)
        case 14, 15: return nested ? .back : .undo
        default: return nested ? .pop : .redo
        }
    }

    /// An operation in Apply's `(sa{sv})` form.
    static func rawOperation(_ op: Navigation.Operation) -> RawOperation {
        switch op {
        case .push(let route, let params): RawOperation(name: "push", arguments: ["route": .string(route), "params": .map(params)])
        case .replace(let route, let params): RawOperation(name: "replace", arguments: ["route": .string(route), "params": .map(params)])
        case .present(let route, let params, let style): RawOperation(name: "present", arguments: ["route": .string(route), "params": .map(params), "style": .string(style)])
        case .popTo(let target): RawOperation(name: "popto", arguments: ["target": .string(target)])
        case .open(let target): RawOperation(name: "open", arguments: ["target": .string(target)])
        case .selectTab(let tab): RawOperation(name: "selecttab", arguments: ["tab": .string(tab)])
        case .setStack(let screens): RawOperation(name: "setstack", arguments: ["screens": .list(screens.map { .record([.string($0.route), .map($0.params)]) })])
        default: RawOperation(name: op.cause)
        }
    }

    /// Each tab's root screen id, to see that pops never remove a root.
    static func rootIds(_ coordinator: Coordinator) -> [String] {
        coordinator.state.tree.tabs.map { $0.layers[0].screens[0].id }
    }

    @Test func invariantsHoldForRandomSequences() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...9999).array(of: 1...50)) { codes in
            var coordinator = Coordinator(graph: Self.graph)
            var snapshots: [(index: Int, bytes: [UInt8])] = [(0, coordinator.state.encodedSnapshot())]
            var records: [JournalRecord] = []
            for (step, code) in codes.enumerated() {
                let op = Self.operation(code)
                let before = coordinator
                let time = Int64(step) * 1000
                let change: Change
                do throws(NavigationError) {
                    change = try coordinator.perform(op, at: time)
                } catch {
                    #expect(coordinator.state == before.state, "failed \(op.cause) changed the state")
                    #expect(!error.message.isEmpty)
                    #expect(op != .back || (error.kind == .atRoot && before.backTarget == nil), "Back failed although BackTarget named a screen")
                    continue
                }
                if change.isNoOp {
                    #expect(coordinator.state == before.state && change.revision == before.revision)
                    #expect(change.record == nil)
                } else {
                    #expect(coordinator.revision == before.revision + 1 && change.revision == coordinator.revision)
                    #expect(coordinator.history(limit: 1) == [HistoryEntry(revision: coordinator.revision, cause: op.cause, time: time)])
                    #expect(change.record == JournalRecord(entry: HistoryEntry(revision: change.revision, cause: op.cause, time: time), operation: op))
                    #expect(change.path == coordinator.path && change.selectedTab == coordinator.selectedTab)
                    #expect(change.changedProperties.contains(.backTarget) == (coordinator.backTarget != before.backTarget))
                    if op == .back, let target = before.backTarget {
                        #expect(BackTarget(id: coordinator.top.id, route: coordinator.top.route, presentation: coordinator.top.presentation) == target)
                    }
                    records.append(change.record!)
                    if case .undo = op {} else if case .redo = op {} else {
                        #expect(coordinator.state.tree != before.state.tree)
                        // Undo brings back the previous tree; redo the later one.
                        var undone = coordinator
                        let undo = try? undone.perform(.undo, at: time)
                        #expect(undo?.revision == coordinator.revision + 1)
                        #expect(undone.state.tree == before.state.tree)
                        _ = try? undone.perform(.redo, at: time)
                        #expect(undone.state.tree == coordinator.state.tree)
                        #expect(!coordinator.canRedo)
                    }
                }
                if [.pop, .popToRoot, .dismiss, .dismissAll, .back].contains(op) || { if case .popTo = op { true } else { false } }() {
                    #expect(Self.rootIds(coordinator) == Self.rootIds(before), "\(op.cause) removed a root")
                }
                #expect(coordinator.state.tree.structuralProblem() == nil)
                #expect(!coordinator.path.isEmpty && coordinator.path.last == coordinator.top)
                #expect(coordinator.path.count == coordinator.depth && coordinator.depth <= Self.graph.limits.maxPathDepth)
                #expect(coordinator.history(limit: 100).count <= Self.graph.limits.maxHistory)
                let snapshot = coordinator.state.encodedSnapshot()
                #expect((try? NavigationState.decodeSnapshot(snapshot)) == coordinator.state)
                if step % 7 == 3 { snapshots.append((records.count, snapshot)) }
            }
            // Replaying the journal from any earlier snapshot reproduces the final state.
            for (index, bytes) in snapshots {
                guard let state = try? NavigationState.decodeSnapshot(bytes) else {
                    Issue.record("snapshot did not decode")
                    continue
                }
                var replayed = Coordinator(graph: Self.graph, restoring: state)
                do {
                    for record in records[index...] { _ = try replayed.replay(JournalRecord.decode(record.encoded())) }
                } catch {
                    Issue.record("replay failed: \(error)")
                }
                #expect(replayed.state == coordinator.state)
            }
        }
    }

    @Test func undoChainsWalkBackThroughEveryKeptTree() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...9999).array(of: 1...30)) { codes in
            var coordinator = Coordinator(graph: Self.graph)
            var trees: [Tree] = [coordinator.state.tree]
            for (step, code) in codes.enumerated() {
                let op = Self.operation(code)
                if case .undo = op { continue }
                if case .redo = op { continue }
                if let change = try? coordinator.perform(op, at: Int64(step)), !change.isNoOp {
                    trees.append(coordinator.state.tree)
                }
            }
            var back = 1
            while coordinator.canUndo {
                _ = try? coordinator.perform(.undo, at: 0)
                #expect(coordinator.state.tree == trees[trees.count - 1 - back])
                back += 1
            }
            #expect(back - 1 >= min(trees.count - 1, Self.graph.limits.maxUndo))
            for expected in trees.suffix(back - 1) {
                _ = try? coordinator.perform(.redo, at: 0)
                #expect(coordinator.state.tree == expected)
            }
        }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct PropertyGeneratorCoverageTests {
    /// The generator must reach every operation's success and every error, or the properties prove little.
    @Test func randomSequencesReachEveryCauseAndError() {
        var successes: [String: Int] = [:]
        var errors: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var coordinator = Coordinator(graph: PropertyTests.graph)
            for step in 0..<50 {
                let op = PropertyTests.operation(Int.random(in: 0...9999, using: &generator))
                do throws(NavigationError) {
                    let change = try coordinator.perform(op, at: Int64(step))
                    successes[change.isNoOp ? "noop:\(op.cause)" : op.cause, default: 0] += 1
                } catch {
                    errors[error.name, default: 0] += 1
                }
            }
        }
        print("successes: \(successes.sorted { $0.key < $1.key })")
        print("errors: \(errors.sorted { $0.key < $1.key })")
        for cause in ["push", "pop", "popto", "poptoroot", "replace", "setstack", "present", "dismiss", "dismissall", "back", "selecttab", "open", "apply", "undo", "redo"] {
            #expect(successes[cause, default: 0] > 0, "no successful \(cause)")
        }
        for name in ["UnknownRoute", "InvalidParams", "AtRoot", "NotFound", "NoModal", "UnknownTab", "NotPresentable", "BadTarget", "StaleRevision", "LimitExceeded", "NothingToUndo", "NothingToRedo"] {
            #expect(errors[name, default: 0] > 0, "no \(name)")
        }
    }
}
