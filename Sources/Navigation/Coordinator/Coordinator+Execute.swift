extension Coordinator {
    /// Applies one tree operation to `tree` with every check of the contract, in its order.
    /// Returns the id of the screen Push, Replace or Present made.
    func execute(_ op: Operation, on tree: inout Tree, ids: inout IdCounter) throws(NavigationError) -> String? {
        try checkStatically([op], indexed: false)
        switch op {
        case .push(let route, let params):
            try graph.checkPresentable(route, as: .push, context: "pushed")
            let screen = try graph.makeScreen(route, params, ids: &ids)
            tree.current.layers[tree.current.layers.count - 1].screens.append(screen)
            try checkDepth(tree, stack: tree.current.layers.count - 1)
            return screen.id
        case .pop:
            try pop(&tree)
        case .popTo(let target):
            try popTo(target, &tree)
        case .popToRoot:
            let last = tree.current.layers.count - 1
            if tree.current.layers[last].screens.count > 1 {
                tree.current.layers[last].screens.removeSubrange(1...)
            }
        case .replace(let route, let params):
            return try replace(route, params, &tree, &ids)
        case .setStack(let requests):
            try setStack(requests, &tree, &ids)
        case .present(let route, let params, let style):
            guard let modal = ModalStyle(rawValue: style) else {
                throw .notPresentable("unknown style '\(style)'; use sheet or cover")
            }
            try graph.checkPresentable(route, as: modal.presentation, context: "presented")
            let screen = try graph.makeScreen(route, params, ids: &ids)
            tree.current.layers.append(StackFrame(style: modal.presentation, screens: [screen]))
            try checkDepth(tree, stack: tree.current.layers.count - 1)
            return screen.id
        case .dismiss:
            guard tree.current.layers.count > 1 else {
                throw .noModal("no sheet or cover is on the path\(tabPhrase(tree)); nothing to dismiss")
            }
            tree.current.layers.removeLast()
        case .dismissAll:
            if tree.current.layers.count > 1 { tree.current.layers.removeSubrange(1...) }
        case .back:
            if tree.current.layers[tree.current.layers.count - 1].screens.count > 1 {
                try pop(&tree)
            } else if tree.current.layers.count > 1 {
                tree.current.layers.removeLast()
            } else {
                let root = tree.current.layers[0].screens[0]
                throw .atRoot("already at the root screen '\(root.route)' (\(root.id))\(tabPhrase(tree)) with no layer open; there is nothing to go back to")
            }
        case .selectTab(let name):
            _ = try graph.tab(name)
            guard let index = tree.tabs.firstIndex(where: { $0.name == name }) else {
                throw .unknownTab("the tree has no tab '\(name)' although the route graph does; reconcile the restored tree first")
            }
            tree.selected = index
        case .open(let target):
            try open(target, &tree, &ids)
        case .apply, .undo, .redo, .reconcile, .send, .start, .finish, .setFacts, .revert:
            throw .invalidOperation("'\(op.cause)' cannot be nested inside another operation")
        }
        return nil
    }

    func tabPhrase(_ tree: Tree) -> String {
        tree.isTabbed ? " of tab '\(tree.current.name)'" : ""
    }

    /// `LimitExceeded` when the path or stack `stack` of the current tab is too deep.
    func checkDepth(_ tree: Tree, stack: Int) throws(NavigationError) {
        let stackCount = tree.current.layers[stack].screens.count
        if stackCount > graph.limits.maxStackDepth {
            throw .limitExceeded("the stack would hold \(stackCount) screens; the limit is \(graph.limits.maxStackDepth)")
        }
        let depth = tree.depth
        if depth > graph.limits.maxPathDepth {
            throw .limitExceeded("the path would hold \(depth) screens; the limit is \(graph.limits.maxPathDepth)")
        }
    }

    func pop(_ tree: inout Tree) throws(NavigationError) {
        let last = tree.current.layers.count - 1
        let frame = tree.current.layers[last]
        guard frame.screens.count > 1 else {
            let root = frame.screens[0]
            if last > 0 {
                throw .atRoot("the top \(frame.style.rawValue) holds only its root screen '\(root.route)' (\(root.id)); use Dismiss or Back to close it")
            }
            throw .atRoot("the stack\(tabPhrase(tree)) holds only its root screen '\(root.route)' (\(root.id)); nothing to pop")
        }
        tree.current.layers[last].screens.removeLast()
    }

    func popTo(_ target: String, _ tree: inout Tree) throws(NavigationError) {
        let layers = tree.current.layers
        for layerIndex in layers.indices.reversed() {
            let screens = layers[layerIndex].screens
            for screenIndex in screens.indices.reversed() where screens[screenIndex].id == target || screens[screenIndex].route == target {
                if layerIndex + 1 < layers.count { tree.current.layers.removeSubrange((layerIndex + 1)...) }
                if screenIndex + 1 < screens.count { tree.current.layers[layerIndex].screens.removeSubrange((screenIndex + 1)...) }
                return
            }
        }
        let onPath = tree.path.map { "\($0.route) (\($0.id))" }.joined(separator: ", ")
        throw .notFound("no screen on the path has id or route '\(target)'; the path is: \(onPath)")
    }

    /// The presentation a screen at `index` of the top stack has (and a new one there needs).
    func presentation(at index: Int, of tree: Tree) -> Presentation {
        index > 0 ? .push : tree.current.layers[tree.current.layers.count - 1].style
    }

    func replace(_ route: String, _ params: InputParams, _ tree: inout Tree, _ ids: inout IdCounter) throws(NavigationError) -> String {
        let last = tree.current.layers.count - 1
        let index = tree.current.layers[last].screens.count - 1
        let presentation = presentation(at: index, of: tree)
        try graph.checkPresentable(route, as: presentation, context: "it would replace a screen shown as \(presentation.rawValue)")
        let screen = try graph.makeScreen(route, params, ids: &ids)
        tree.current.layers[last].screens[index] = screen
        return screen.id
    }

    func setStack(_ requests: [ScreenRequest], _ tree: inout Tree, _ ids: inout IdCounter) throws(NavigationError) {
        for (index, request) in requests.enumerated() {
            let presentation = presentation(at: index, of: tree)
            try graph.checkPresentable(request.route, as: presentation, context: "screen \(index) of SetStack is shown as \(presentation.rawValue)")
        }
        var screens: [Screen] = []
        screens.reserveCapacity(requests.count)
        for request in requests {
            screens.append(try graph.makeScreen(request.route, request.params, ids: &ids))
        }
        let last = tree.current.layers.count - 1
        tree.current.layers[last].screens = screens
        try checkDepth(tree, stack: last)
    }

    func open(_ target: String, _ tree: inout Tree, _ ids: inout IdCounter) throws(NavigationError) {
        let plan = try graph.resolveTarget(target, links: index.links)
        let tabName = graph.isTabbed ? graph.tabs[plan.tabIndex].name : ""
        guard tree.isTabbed == graph.isTabbed, let index = tree.tabs.firstIndex(where: { $0.name == tabName }) else {
            throw .badTarget("the tree does not fit the route graph (no tab '\(tabName)'); reconcile the restored tree first")
        }
        if tree.current.layers.count > 1 { tree.current.layers.removeSubrange(1...) }
        tree.selected = index
        let screens = plan.screens.map { Screen(id: ids.issue(), route: $0.route, params: $0.params) }
        tree.current.layers = [StackFrame(style: .root, screens: screens)]
        try checkDepth(tree, stack: 0)
    }
}
