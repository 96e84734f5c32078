import Testing
@testable import Navigation

/// `BackTarget`: the screen `Back` would leave on top, by the rule `Back` follows; nil where `Back` answers
/// `AtRoot`; reported as changed only when it changed.
@Suite(.timeLimit(.minutes(1)))
struct BackTargetTests {
    /// Checks that `Back` does what `backTarget` said: leaves that screen on top, or is refused with `AtRoot`.
    func backAgrees(with coordinator: Coordinator, sourceLocation: SourceLocation = #_sourceLocation) {
        var copy = coordinator
        guard let target = coordinator.backTarget else {
            #expect(coordinator.refuse(.back)?.kind == .atRoot, "no target, yet Back did not answer AtRoot", sourceLocation: sourceLocation)
            return
        }
        copy.must(.back, sourceLocation: sourceLocation)
        #expect(BackTarget(id: copy.top.id, route: copy.top.route, presentation: copy.top.presentation) == target,
                sourceLocation: sourceLocation)
    }

    @Test func noneAtTheRootOfAFreshTree() {
        let coordinator = demo()
        #expect(coordinator.backTarget == nil)
        backAgrees(with: coordinator)
    }

    @Test func afterPushesTheScreenBelowTheTop() {
        var coordinator = demo()
        let first = coordinator.must(push("orange"))  // #7
        #expect(coordinator.backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
        #expect(first?.changedProperties == [.revision, .depth, .top, .topID, .canUndo, .backTarget])
        coordinator.must(push("yellow"))  // #8
        #expect(coordinator.backTarget == BackTarget(id: "#7", route: "orange", presentation: .push))
        backAgrees(with: coordinator)
        coordinator.must(.pop)
        #expect(coordinator.backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
        let last = coordinator.must(.pop)
        #expect(coordinator.backTarget == nil && last?.changedProperties.contains(.backTarget) == true)
    }

    @Test func aSheetOnTopGoesBackToTheScreenThatPresentedIt() {
        var coordinator = demo()
        coordinator.must(push("orange"))  // #7
        coordinator.must(present("modal", "sheet"))  // #8
        #expect(coordinator.backTarget == BackTarget(id: "#7", route: "orange", presentation: .push))
        backAgrees(with: coordinator)
        coordinator.must(push("yellow"))  // #9, inside the sheet
        #expect(coordinator.backTarget == BackTarget(id: "#8", route: "modal", presentation: .sheet))
        backAgrees(with: coordinator)
        coordinator.must(present("login", "cover"))  // #10, over the sheet
        #expect(coordinator.backTarget == BackTarget(id: "#9", route: "yellow", presentation: .push))
        backAgrees(with: coordinator)
        coordinator.must(.dismissAll)
        #expect(coordinator.backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
    }

    @Test func eachTabHasItsOwn() {
        var coordinator = demo()
        coordinator.must(present("modal", "sheet"))  // #7 in rainbow
        #expect(coordinator.backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
        let toNews = coordinator.must(.selectTab("news"))
        #expect(coordinator.backTarget == nil)
        #expect(toNews?.changedProperties == [.revision, .depth, .top, .topID, .selectedTab, .backTarget])
        backAgrees(with: coordinator)
        coordinator.must(.selectTab("rainbow"))
        #expect(coordinator.backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
    }

    @Test func notReportedWhenItStaysTheSame() {
        var coordinator = demo()
        coordinator.must(push("orange"))  // #7
        coordinator.must(push("yellow"))  // #8
        let replaced = coordinator.must(.replace(route: "green", params: [:]))  // #9: the top changes, the target does not
        #expect(coordinator.backTarget == BackTarget(id: "#7", route: "orange", presentation: .push))
        #expect(replaced?.changedProperties == [.revision, .top, .topID])
        let undone = coordinator.must(.undo)
        #expect(undone?.changedProperties == [.revision, .top, .topID, .canRedo])
    }

    @Test func undoAndRedoBringTheirTargetsBack() {
        var coordinator = demo()
        coordinator.must(push("orange"))  // #7
        coordinator.must(present("modal", "sheet"))  // #8
        let undone = coordinator.must(.undo)
        #expect(coordinator.backTarget == BackTarget(id: "#2", route: "red", presentation: .root))
        #expect(undone?.changedProperties.contains(.backTarget) == true)
        coordinator.must(.redo)
        #expect(coordinator.backTarget == BackTarget(id: "#7", route: "orange", presentation: .push))
        backAgrees(with: coordinator)
    }
}
