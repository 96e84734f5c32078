// The declared link patterns parsed once into a trie, so that matching a link against them costs about
// the link's length, not the number of patterns.

/// A graph's link patterns as a trie keyed by segment: one trie per segment count, each node with a child
/// per literal text and at most one param child, each pattern's last node holding its route's position.
///
/// Matching gives what trying each route's pattern in `routeOrder` gives: the first route whose pattern
/// matches structurally (same segment count, literals equal, params non-empty) decides. Built from the
/// graph it is used with (`Coordinator` keeps one beside its graph; the loader builds one for its checks),
/// since it holds route names and patterns, not the specs they are checked against. It also finds tabs by
/// name, for the same reason: reading a link must not scan every tab.
package struct LinkIndex: Sendable {
    /// One trie node: its children (indexes into `nodes`) and the earliest route whose pattern ends here.
    struct Node: Sendable {
        /// The child for each literal segment text.
        var literals: [String: Int] = [:]
        /// The child for a `{param}` segment.
        var param: Int?
        /// The position in `routes` (so in `routeOrder`) of the first route whose pattern ends here.
        var route: Int?
    }

    /// The trie's nodes.
    var nodes: [Node] = []
    /// The root node of the patterns of each segment count.
    var roots: [Int: Int] = [:]
    /// Each route with a link pattern, in `routeOrder`, and its pattern.
    var routes: [(name: String, pattern: [LinkPattern])] = []
    /// Each tab's index by name (the first tab of that name), so that reading a link's tab is no scan.
    var tabs: [String: Int] = [:]

    /// An index of no patterns.
    package init() {}

    /// The patterns of `graph`'s routes, in `routeOrder`; a route without a link or whose link is no
    /// pattern is left out, as the scan skipped it.
    package init(_ graph: RouteGraph) {
        for name in graph.routeOrder {
            guard let spec = graph.routes[name], let pattern = spec.link.flatMap(LinkPattern.parse) else { continue }
            add(pattern, of: name)
        }
        for (index, tab) in graph.tabs.enumerated() where tabs[tab.name] == nil { tabs[tab.name] = index }
    }

    /// The index of the first tab named `name`, as `RouteGraph.tabIndex(named:)` finds it.
    func tabIndex(named name: String) -> Int? { tabs[name] }

    /// Adds `pattern` of route `name` after every route added before it.
    mutating func add(_ pattern: [LinkPattern], of name: String) {
        var current: Int
        if let root = roots[pattern.count] { current = root } else { current = newNode(); roots[pattern.count] = current }
        for part in pattern {
            switch part {
            case .literal(let text):
                if let next = nodes[current].literals[text] { current = next; continue }
                let next = newNode()
                nodes[current].literals[text] = next
                current = next
            case .param:
                if let next = nodes[current].param { current = next; continue }
                let next = newNode()
                nodes[current].param = next
                current = next
            }
        }
        if nodes[current].route == nil { nodes[current].route = routes.count }
        routes.append((name, pattern))
    }

    /// A new childless node's index.
    private mutating func newNode() -> Int {
        nodes.append(Node())
        return nodes.count - 1
    }

    /// The first route (in `routeOrder`) whose pattern `segments` (the segments of `link`) match, with the
    /// pattern; nil when none does. `BadTarget` when a pattern of the link's length reaches a param at a
    /// segment with bad percent-encoding: trying patterns in turn threw that before any other outcome,
    /// since a literal (a plain name) never equals such a segment, so every pattern that could match the
    /// link has a param there.
    func firstMatch(_ segments: [Substring], in link: String) throws(NavigationError) -> (name: String, pattern: [LinkPattern])? {
        guard let root = roots[segments.count] else { return nil }
        // The nodes the segments so far lead to: each node is reached from one parent, so at most once.
        var frontier = [root]
        for segment in segments {
            var next: [Int] = []
            let text = String(segment)
            var decodes: Bool?
            for index in frontier {
                let node = nodes[index]
                if let child = node.literals[text] { next.append(child) }
                if let child = node.param, !segment.isEmpty {
                    if decodes == nil { decodes = PercentDecoding.decode(segment) != nil }
                    if decodes == false { throw RouteGraph.badEncoding(segment, in: link) }
                    next.append(child)
                }
            }
            if next.isEmpty { return nil }
            frontier = next
        }
        return frontier.compactMap { nodes[$0].route }.min().map { routes[$0] }
    }
}
