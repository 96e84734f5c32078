/// One route of the graph: what a screen of that name may carry and how it may be shown.
public struct RouteSpec: Hashable, Sendable {
    /// The route's name (letters, digits, `-`, `_`, `.`), and a human title.
    public var name, title: String
    /// Declared params: name to type.
    public var params: [String: ParamType]
    /// Declared param names in the order the route file gives them.
    public var paramOrder: [String]
    /// The params a screen of this route must carry.
    public var required: Set<String>
    /// How the route may be shown besides as a root: `push`, `sheet`, `cover`.
    public var presentations: Set<Presentation>
    /// A deep-link pattern such as `/news/{id}`, if any.
    public var link: String?
    /// The tab a link to this route opens in (nil when the app is untabbed or the route has no link).
    public var linkTab: String?
    /// Display hints such as `color` and `index`.
    public var hints: [String: HintValue]
    /// The `bool` facts that must be true while a screen of this route is on the tree, in order.
    public var requires: [String]
    /// Handlers of events sent from a screen of this route (the first scope).
    public var on: Handlers

    /// A route with the given declaration.
    public init(
        name: String, title: String, params: [String: ParamType] = [:], paramOrder: [String]? = nil,
        required: Set<String> = [], presentations: Set<Presentation> = [.push], link: String? = nil,
        linkTab: String? = nil, hints: [String: HintValue] = [:], requires: [String] = [], on: Handlers = Handlers()
    ) {
        self.name = name
        self.title = title
        self.params = params
        self.paramOrder = paramOrder ?? params.keys.sorted()
        self.required = required
        self.presentations = presentations
        self.link = link
        self.linkTab = linkTab
        self.hints = hints
        self.requires = requires
        self.on = on
    }
}

/// One tab: its name and the route of its stack's root screen.
public struct TabSpec: Hashable, Sendable {
    /// The tab's name, and the route of its root screen (which declares no required params).
    public var name, rootRoute: String
    /// Handlers of events sent from any screen of the tab (the third scope).
    public var on: Handlers

    /// A tab named `name` whose root is `rootRoute`.
    public init(name: String, rootRoute: String, on: Handlers = Handlers()) {
        self.name = name
        self.rootRoute = rootRoute
        self.on = on
    }
}

/// The route graph: tabs, routes, named states and limits. Checked when loaded.
public struct RouteGraph: Hashable, Sendable {
    /// The tabs in order; empty means a single stack rooted at `rootRoute`.
    public var tabs: [TabSpec]
    /// The root route of an untabbed app (nil when tabbed).
    public var rootRoute: String?
    /// Every route by name.
    public var routes: [String: RouteSpec]
    /// Route names in the order the route file gives them (GetRoutes order).
    public var routeOrder: [String]
    /// Named states and the links they stand for.
    public var states: [String: String]
    /// The tab selected in a fresh tree (nil: the first tab).
    public var selectedTabAtStart: String?
    /// The limits enforced on calls.
    public var limits: Limits
    /// Declared facts by name.
    public var facts: [String: FactSpec]
    /// Fact names in declaration order.
    public var factOrder: [String]
    /// Declared flows by name.
    public var flows: [String: FlowSpec]
    /// Flow names in declaration order.
    public var flowOrder: [String]
    /// Guards by the fact they guard.
    public var guards: [String: GuardSpec]
    /// App-wide handlers (the last scope).
    public var on: Handlers
    /// Who may change and read the navigator (`access:`); nil: everyone the bus lets through.
    public var access: Access? = nil

    /// A graph from its parts, not checked; prefer the RouteFiles loader, which checks.
    public init(
        tabs: [TabSpec], rootRoute: String?, routes: [String: RouteSpec], routeOrder: [String]? = nil,
        states: [String: String] = [:], selectedTabAtStart: String? = nil, limits: Limits = Limits(),
        facts: [String: FactSpec] = [:], factOrder: [String]? = nil, flows: [String: FlowSpec] = [:],
        flowOrder: [String]? = nil, guards: [String: GuardSpec] = [:], on: Handlers = Handlers()
    ) {
        self.tabs = tabs
        self.rootRoute = rootRoute
        self.routes = routes
        self.routeOrder = routeOrder ?? routes.keys.sorted()
        self.states = states
        self.selectedTabAtStart = selectedTabAtStart
        self.limits = limits
        self.facts = facts
        self.factOrder = factOrder ?? facts.keys.sorted()
        self.flows = flows
        self.flowOrder = flowOrder ?? flows.keys.sorted()
        self.guards = guards
        self.on = on
    }

    /// Each fact at its default.
    public var defaultFacts: [String: ParamValue] {
        facts.mapValues(\.defaultValue)
    }

    /// Whether the root is a set of tabs (else one stack).
    public var isTabbed: Bool { !tabs.isEmpty }

    /// The routes in `routeOrder`.
    public var orderedRoutes: [RouteSpec] { routeOrder.compactMap { routes[$0] } }

    /// The index of the tab named `name`, if any.
    public func tabIndex(named name: String) -> Int? {
        tabs.firstIndex { $0.name == name }
    }

    /// The root route of the stack at `tabIndex` (the single stack's when untabbed).
    package func rootRoute(ofTab tabIndex: Int) -> String {
        isTabbed ? tabs[tabIndex].rootRoute : (rootRoute ?? "")
    }

    /// The index of the tab selected in a fresh tree.
    var startTabIndex: Int {
        guard isTabbed else { return 0 }
        return selectedTabAtStart.flatMap { tabIndex(named: $0) } ?? 0
    }

    /// Whether `name` may be a route, tab or param name: non-empty letters, digits, `-`, `_`, `.`
    /// (so never `#`, which screen ids start with, nor `/`, `;`, `=` or `%` of link syntax).
    public static func isValidName(_ name: String) -> Bool {
        var name = name
        // Over the contiguous UTF-8 (a native string's own, not copied), not byte by byte through `utf8`.
        return name.withUTF8 { bytes in
            !bytes.isEmpty && bytes.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
        }
    }
}
