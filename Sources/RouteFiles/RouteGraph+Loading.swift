import Navigation

// The route-file loader: reads a YAML file into a RouteGraph and checks it.

extension RouteGraph {
    /// Loads and checks the route file at `path`, read through ``RouteFileSource`` (a regular file
    /// of at most 1 MiB; anything else is refused before it is opened).
    public static func load(path: String) throws(RouteFileError) -> RouteGraph {
        try load(bytes: try RouteFileSource.read(path), file: path)
    }

    /// Parses and checks a YAML route file; `file` names it in errors. See `load(bytes:file:leavingBehind:)` for
    /// `leftovers`.
    public static func load(yaml: String, file: String, leavingBehind leftovers: ParseLeftovers? = nil) throws(RouteFileError) -> RouteGraph {
        try load(bytes: Array(yaml.utf8), file: file, leavingBehind: leftovers)
    }

    /// Parses and checks a route file's UTF-8 bytes, in time and memory bounded whatever they hold
    /// (`docs/reliability.md#bounded-route-files`: at most 1 MiB, aliases expanding to at most 10,000 nodes, nesting at most 64
    /// deep); `file` names it in errors.
    /// With `leftovers`, what the parse built besides the graph (the YAML tree, the reader's indexes) is handed to it
    /// instead of being freed before this returns, for a caller in a hurry to free once it has answered.
    public static func load(bytes: [UInt8], file: String, leavingBehind leftovers: ParseLeftovers? = nil) throws(RouteFileError) -> RouteGraph {
        if bytes.count > RouteFileSource.maximumBytes { throw RouteFileSource.tooLarge(file, RouteFileSource.maximumBytes) }
        guard let root = try YAMLComposer.compose(bytes, file: file) else {
            throw RouteFileError(file: file, keyPath: "", problem: "the file is empty; it needs at least `routes:` and `tabs:` or `root:`")
        }
        var reader = RouteFileReader(file: file)
        // Each step consumes the graph before it, so that filling in its routes never copies them.
        let graph = try reader.check(try reader.readGraph(root))
        leftovers?.keep(root, reader)
        return graph
    }
}

/// What parsing a route file built besides its graph: the YAML tree and the reader's indexes of it. Freeing a
/// 1,000-route file's takes about a tenth of its parse; a caller that hands one to `RouteGraph.load` frees it
/// (by `release()`, or by letting go of it) when no one waits. It holds the last parse's only: handed to the
/// next, it frees the one before, so parsing many files holds no more than one tree.
public final class ParseLeftovers: @unchecked Sendable {
    private var root: YAMLNode?
    private var reader: RouteFileReader?

    /// An empty holder, for one `RouteGraph.load` call (or several: it keeps the last).
    public init() {}

    fileprivate func keep(_ root: YAMLNode, _ reader: consuming RouteFileReader) {
        self.root = root
        self.reader = reader
    }

    /// Frees what it holds.
    public func release() {
        root = nil
        reader = nil
    }
}

/// Reads a route file's YAML tree, naming the key path of every problem.
struct RouteFileReader {
    let file: String

    func fail(_ path: String, _ node: YAMLNode?, _ problem: String) -> RouteFileError {
        RouteFileError(file: file, keyPath: path, line: node?.line, problem: problem)
    }

    func mapping(_ node: YAMLNode, _ path: @autoclosure () -> String, keys allowed: [String]) throws(RouteFileError) -> KeyedPairs {
        guard case .mapping(let mapping) = node else {
            throw fail(path(), node, "expected a mapping (key: value lines)")
        }
        for index in 0..<mapping.count {
            guard case .scalar(let keyScalar) = mapping.nodes[2 * index] else {
                throw fail(path(), mapping.nodes[2 * index], "keys must be plain strings")
            }
            if !allowed.isEmpty && !allowed.contains(keyScalar.string) {
                throw fail(join(path(), keyScalar.string), mapping.nodes[2 * index], "unknown key '\(keyScalar.string)'; known keys: \(allowed.joined(separator: ", "))")
            }
        }
        return KeyedPairs(mapping: mapping)
    }

    func string(_ node: YAMLNode, _ path: @autoclosure () -> String) throws(RouteFileError) -> String {
        guard case .scalar(let scalar) = node else {
            throw fail(path(), node, "expected a string")
        }
        return scalar.string
    }

    func integer(_ node: YAMLNode, _ path: @autoclosure () -> String) throws(RouteFileError) -> Int {
        guard case .scalar = node, let value = node.int else {
            throw fail(path(), node, "expected a whole number")
        }
        return value
    }

    func name(_ text: String, _ path: @autoclosure () -> String, _ node: YAMLNode?, what: String) throws(RouteFileError) -> String {
        guard RouteGraph.isValidName(text) else {
            throw fail(path(), node, "'\(text)' is not a valid \(what) name; use letters, digits, '-', '_' and '.' only")
        }
        return text
    }


    mutating func readGraph(_ root: YAMLNode) throws(RouteFileError) -> RouteGraph {
        var tabs: [TabSpec] = []
        var sawTabs = false
        var rootRoute: String?
        var routes: [String: RouteSpec] = [:]
        var routeOrder: [String] = []
        var states: [String: String] = [:]
        var selected: String?
        var limits = Limits()
        var facts: [String: FactSpec] = [:]
        var factOrder: [String] = []
        var flows: [String: FlowSpec] = [:]
        var flowOrder: [String] = []
        var guards: [String: GuardSpec] = [:]
        var nodes: [String: YAMLNode] = [:]
        var access: Access?
        for (key, value) in try mapping(root, "", keys: RouteFileKeys.topLevel) {
            nodes[key] = value
            switch key {
            case "tabs":
                sawTabs = true
                tabs = try readTabs(value)
            case "selected-tab": selected = try string(value, key)
            case "root": rootRoute = try name(try string(value, key), key, value, what: "route")
            case "routes":
                for (routeName, routeNode) in try mapping(value, "routes", keys: []) {
                    let path = join("routes", routeName)
                    _ = try name(routeName, path, routeNode, what: "route")
                    routes[routeName] = try readRoute(routeName, routeNode, path)
                    routeOrder.append(routeName)
                    routeNodes[routeName] = routeNode
                }
            case "states":
                for (stateName, linkNode) in try mapping(value, "states", keys: []) {
                    let path = join("states", stateName)
                    guard !stateName.isEmpty, !stateName.hasPrefix("/"), !stateName.hasPrefix("navd:") else {
                        throw fail(path, linkNode, "a state name must not be empty nor start with '/' or 'navd:'")
                    }
                    states[stateName] = try string(linkNode, path)
                }
            case "limits": limits = try readLimits(value)
            case "facts": (facts, factOrder) = try readFacts(value)
            case "flows": (flows, flowOrder) = try readFlows(value)
            case "guards": guards = try readGuards(value)
            case "on": handlerNodes.append((.app, value, "on"))
            case "access": access = try readAccess(value)
            default: break
            }
        }
        if sawTabs && tabs.isEmpty {
            throw fail("tabs", nodes["tabs"], "lists no tab; leave `tabs` out and give `root: ROUTE` for a single stack")
        }
        if !sawTabs && rootRoute == nil {
            throw fail("", root, "give either `tabs:` (a list of {name, root}) or `root: ROUTE` for a single stack")
        }
        if sawTabs && rootRoute != nil {
            throw fail("root", nodes["root"], "`root` is for an app without tabs; with `tabs`, each tab names its root")
        }
        if !sawTabs && selected != nil {
            throw fail("selected-tab", nodes["selected-tab"], "the app has no tabs")
        }
        if routes.isEmpty {
            throw fail("routes", nodes["routes"] ?? root, "declare at least one route under `routes:`")
        }
        rawNodes = nodes
        var graph = RouteGraph(
            tabs: tabs, rootRoute: rootRoute, routes: routes, routeOrder: routeOrder, states: states,
            selectedTabAtStart: selected, limits: limits, facts: facts, factOrder: factOrder, flows: flows,
            flowOrder: flowOrder, guards: guards)
        graph.access = access
        return graph
    }

    /// The top-level nodes, kept to place errors found by `check`.
    var rawNodes: [String: YAMLNode] = [:]
    /// Each tab's index by name, so that checking a file with many tabs and links stays linear.
    var tabIndexes: [String: Int] = [:]
    /// Each output name's params, as declared by the first flow that declares it.
    var outputsByName: [String: ParamDeclaration] = [:]
    /// Each route's declaration and presentations, for the actions that name it (filled by `readAllHandlers`).
    var routeTargets: [String: RouteTarget] = [:]
    /// Each route's node, kept to place errors found by `check`.
    var routeNodes: [String: YAMLNode] = [:]
    /// Each route's `link` node, kept to place errors found by `check`.
    var linkNodes: [String: YAMLNode] = [:]
    /// The checked routes' link patterns, built once by `check` for the states and `open` actions.
    var links = LinkIndex()
    /// The `on:` nodes, read once every route, flow, tab and fact they name is known.
    var handlerNodes: [(scope: HandlerScope, node: YAMLNode, path: String)] = []
    /// Each route's `requires` node, each flow's node and each guard's node, kept to place errors.
    var requiresNodes: [String: YAMLNode] = [:]
    var flowNodes: [String: YAMLNode] = [:]
    var guardNodes: [String: YAMLNode] = [:]

    mutating func readTabs(_ node: YAMLNode) throws(RouteFileError) -> [TabSpec] {
        guard case .sequence(let sequence) = node else {
            throw fail("tabs", node, "expected a list of tabs, each `- name: NAME` and `root: ROUTE`")
        }
        var tabs: [TabSpec] = []
        for (index, tabNode) in sequence.enumerated() {
            let path = "tabs[\(index)]"
            var tabName: String?
            var tabRoot: String?
            for (key, value) in try mapping(tabNode, path, keys: RouteFileKeys.tab) {
                if key == "on" { handlerNodes.append((.tab(index), value, join(path, key))) }
                if key == "name" { tabName = try name(try string(value, join(path, key)), join(path, key), value, what: "tab") }
                if key == "root" { tabRoot = try name(try string(value, join(path, key)), join(path, key), value, what: "route") }
            }
            guard let tabName else { throw fail(path, tabNode, "a tab needs `name`") }
            guard let tabRoot else { throw fail(path, tabNode, "tab '\(tabName)' needs `root: ROUTE`") }
            if tabIndexes[tabName] != nil {
                throw fail(join(path, "name"), tabNode, "tab '\(tabName)' is declared twice")
            }
            tabIndexes[tabName] = tabs.count
            tabs.append(TabSpec(name: tabName, rootRoute: tabRoot))
        }
        return tabs
    }

    mutating func readRoute(_ routeName: String, _ node: YAMLNode, _ path: String) throws(RouteFileError) -> RouteSpec {
        var spec = RouteSpec(name: routeName, title: routeName)
        if case .scalar(let scalar) = node, scalar.isEmptyOrTaggedNull {
            return spec
        }
        for (key, value) in try mapping(node, path, keys: RouteFileKeys.route) {
            // Built when used: only `on` keeps it, and messages.
            func keyPath() -> String { join(path, key) }
            switch key {
            case "title": spec.title = try string(value, keyPath())
            case "params":
                let declaration = try readParams(value, keyPath())
                spec.params = declaration.types
                spec.paramOrder = declaration.order
                spec.required = declaration.required
            case "requires":
                guard case .sequence(let sequence) = value else {
                    throw fail(keyPath(), value, "expected a list of facts such as [signed-in]")
                }
                var facts: [String] = []
                for item in sequence { facts.append(try name(try string(item, keyPath()), keyPath(), item, what: "fact")) }
                spec.requires = facts
                requiresNodes[routeName] = value
            case "on":
                handlerNodes.append((.route(routeName), value, keyPath()))
            case "presentations":
                guard case .sequence(let sequence) = value else {
                    throw fail(keyPath(), value, "expected a list such as [push] or [sheet, cover]")
                }
                var presentations: Set<Presentation> = []
                for item in sequence {
                    let text = try string(item, keyPath())
                    guard let presentation = Presentation(rawValue: text), presentation != .root else {
                        throw fail(keyPath(), item, "unknown presentation '\(text)'; use push, sheet or cover")
                    }
                    presentations.insert(presentation)
                }
                spec.presentations = presentations
            case "link":
                spec.link = try string(value, keyPath())
                linkNodes[routeName] = value
            case "tab": spec.linkTab = try name(try string(value, keyPath()), keyPath(), value, what: "tab")
            case "hints":
                for (hintName, hintNode) in try mapping(value, keyPath(), keys: []) {
                    guard case .scalar(let scalar) = hintNode else {
                        throw fail(join(keyPath(), hintName), hintNode, "a hint is a string or a whole number")
                    }
                    if let number = hintNode.int, !scalar.isString {
                        spec.hints[hintName] = .int(Int64(number))
                    } else {
                        spec.hints[hintName] = .string(scalar.string)
                    }
                }
            default: break
            }
        }
        return spec
    }
}

/// The path of `key` under `path` in a route file, for messages (`tabs[0].on.next`). A free function, so that the
/// lazily built paths (`@autoclosure`) capture only the strings they join, never a copy of the reader.
func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

/// A mapping whose keys were checked to be strings: its (key, value) pairs in file order, read in place (no array
/// of pairs is made).
struct KeyedPairs: RandomAccessCollection {
    let mapping: YAMLMapping

    var startIndex: Int { 0 }
    var endIndex: Int { mapping.count }

    subscript(position: Int) -> (String, YAMLNode) {
        guard case .scalar(let key) = mapping.nodes[2 * position] else { preconditionFailure("a mapping's keys are checked to be strings") }
        return (key.string, mapping.nodes[2 * position + 1])
    }
}
