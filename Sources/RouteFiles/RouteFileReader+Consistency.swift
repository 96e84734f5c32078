import Navigation

extension RouteFileReader {
    /// Checks what a route file's parts say about each other; fills in each link's tab.
    mutating func check(_ input: consuming RouteGraph) throws(RouteFileError) -> RouteGraph {
        var graph = input
        for (index, tab) in graph.tabs.enumerated() {
            try checkRootRoute(tab.rootRoute, in: graph, path: "tabs[\(index)].root", node: rawNodes["tabs"])
        }
        if let selected = graph.selectedTabAtStart, tabIndexes[selected] == nil {
            throw fail("selected-tab", rawNodes["selected-tab"], "no tab '\(selected)'; tabs: \(graph.tabs.map(\.name).joined(separator: ", "))")
        }
        if let root = graph.rootRoute {
            try checkRootRoute(root, in: graph, path: "root", node: rawNodes["root"])
        }
        for name in graph.routeOrder {
            guard var spec = graph.routes[name] else { continue }
            try checkLink(&spec, in: graph)
            graph.routes[name] = spec
        }
        // Built once: checking each state and `open` action by trying every pattern in turn was quadratic.
        links = LinkIndex(graph)
        for (stateName, link) in graph.states.sorted(by: { $0.key < $1.key }) {
            do {
                try graph.checkLinkOpens(link, links: links)
            } catch {
                throw fail("states.\(stateName)", rawNodes["states"], "link '\(link)' does not resolve: \(error.message)")
            }
        }
        try checkCoordination(graph)
        return try readAllHandlers(into: graph)
    }

    func checkRootRoute(_ route: String, in graph: RouteGraph, path: String, node: YAMLNode?) throws(RouteFileError) {
        guard let spec = graph.routes[route] else {
            throw fail(path, node, "no route '\(route)' under `routes:`")
        }
        if let missing = spec.required.sorted().first {
            throw fail(path, node, "root route '\(route)' requires param '\(missing)', but a tab's root screen is made without params")
        }
    }

    func checkLink(_ spec: inout RouteSpec, in graph: RouteGraph) throws(RouteFileError) {
        let base = "routes.\(spec.name)"
        let node = linkNodes[spec.name] ?? routeNodes[spec.name]
        guard let link = spec.link else {
            if spec.linkTab != nil {
                throw fail("\(base).tab", node, "`tab` says where the route's link opens; this route has no `link`")
            }
            return
        }
        guard let segments = LinkPattern.parse(link) else {
            throw fail("\(base).link", node, "'\(link)' is not a link pattern; write /word/{param}/…: it starts with '/', has no empty segment, and a segment is a plain name or {param}")
        }
        var placeholders: Set<String> = []
        for case .param(let param) in segments {
            guard spec.params[param] != nil else {
                throw fail("\(base).link", node, "'{\(param)}' is not a declared param of '\(spec.name)'")
            }
            guard placeholders.insert(param).inserted else {
                throw fail("\(base).link", node, "'{\(param)}' appears twice")
            }
        }
        if let missing = spec.required.subtracting(placeholders).sorted().first {
            throw fail("\(base).link", node, "required param '\(missing)' has no {\(missing)} in the link, so the link could never open")
        }
        if graph.isTabbed {
            if let tab = spec.linkTab {
                guard tabIndexes[tab] != nil else {
                    throw fail("\(base).tab", node, "no tab '\(tab)'; tabs: \(graph.tabs.map(\.name).joined(separator: ", "))")
                }
            } else if case .literal(let first)? = segments.first, tabIndexes[first] != nil {
                spec.linkTab = first
            } else {
                throw fail("\(base).link", node, "cannot tell which tab '\(link)' opens in; add `tab: NAME` to the route")
            }
        } else if spec.linkTab != nil {
            throw fail("\(base).tab", node, "the app has no tabs")
        }
        let tabIndex = spec.linkTab.flatMap { tabIndexes[$0] } ?? 0
        if graph.rootRoute(ofTab: tabIndex) != spec.name && !spec.presentations.contains(.push) {
            throw fail("\(base).link", node, "the link pushes '\(spec.name)' onto its tab's stack, but its presentations lack push")
        }
    }
}
