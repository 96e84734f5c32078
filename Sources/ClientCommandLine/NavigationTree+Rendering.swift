import JSON
import Recording
import NavdClient

extension Node {
    /// The node as a JSON object: `{"id", "parent", "kind", "name", "params"}`.
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("parent", .string(parentID)), ("kind", .string(kind.rawValue)),
            ("name", .string(name)), ("params", params.json),
        ])
    }
}

extension NavigationTree {
    /// The tree as JSON: `{"revision", "tab", "nodes": [Node…]}`, nodes pre-order as navd sent them.
    public var json: JSONValue {
        .object([("revision", .number(revision)), ("tab", .string(tab)), ("nodes", .array(nodes.map(\.json)))])
    }

    /// The id of the screen on top of the visible path: from the selected tab (or the untabbed root),
    /// follow pushed screens, then presented layers. Nil when there is none, or when following the parent
    /// ids comes back to a node already passed (a malformed reply: ids repeat or form a cycle).
    public var topID: String? {
        let children = childrenByParent()
        var current: Node? = nodes.first { $0.kind == .tab && $0.name == tab } ?? nodes.first { $0.parentID == "" }
        if current?.kind == .tab { current = children[current!.id]?.first }
        var passed: Set<String> = []
        while let node = current {
            guard passed.insert(node.id).inserted else { return nil }
            let next = children[node.id] ?? []
            if let pushed = next.first(where: { $0.kind == .push }) {
                current = pushed
            } else if let layer = next.last(where: { $0.kind.isLayer }) {
                current = layer
            } else {
                return node.id
            }
        }
        return nil
    }

    /// The tree for people, one node a line: tabs at the left (`*` marks the selected one), each stack's
    /// screens one under the other with their params and `(id)`, a layer indented under the screen that
    /// presented it, and `<- top` after the screen on top of the visible path.
    ///
    /// Any tree navd can hold is drawn in time and memory linear in its size, without recursion (a stack of
    /// 100,000 screens is 100,000 lines at one indent); indents stop growing past `maximumIndent` levels, the
    /// deeper lines marked with their level, `(45) `. A malformed reply still gives a finite answer: a node
    /// whose id was drawn already is drawn once more marked `! … repeats an id (parent ids form a cycle)`
    /// without its children, and nodes no root leads to are listed last after
    /// `! not under any root (parent ids form a cycle):`.
    public func text(useUnicode: Bool = false) -> [String] {
        let children = childrenByParent()
        let top = topID
        var lines: [String] = []
        lines.reserveCapacity(nodes.count)
        var drawn: Set<String> = []
        func screenLabel(_ node: Node) -> String {
            var label = node.kind.isLayer ? "[\(node.kind.rawValue)] \(node.name)" : node.name
            for key in node.params.keys.sorted() { label += " \(key)=\(node.params[key]!.text)" }
            label += "  (\(node.id))"
            if node.id == top { label += useUnicode ? "  ← top" : "  <- top" }
            return label
        }
        // Depth first, as a stack of nodes still to draw with their indents: the next to draw is last.
        var pending: [(node: Node, indent: Int)] = nodes.filter { $0.parentID.isEmpty }.reversed().map { ($0, 0) }
        while let (node, indent) = pending.popLast() {
            let pad = Self.indentation(indent)
            guard drawn.insert(node.id).inserted else {
                lines.append("\(pad)! \(node.name)  (\(node.id)) repeats an id (parent ids form a cycle)")
                continue
            }
            let next = children[node.id] ?? []
            if node.kind == .tab {
                lines.append("\(pad)\(node.name == tab ? "*" : " ") \(node.name)")
                pending += next.reversed().map { ($0, indent + 2) }
                continue
            }
            lines.append(pad + screenLabel(node))
            // Layers first, one level in, then the pushed screen at the same indent: reversed, as popped last.
            pending += next.filter { !$0.kind.isLayer }.reversed().map { ($0, indent) }
            pending += next.filter(\.kind.isLayer).reversed().map { ($0, indent + 1) }
        }
        let stranded = nodes.filter { !drawn.contains($0.id) }
        if !stranded.isEmpty {
            lines.append("! not under any root (parent ids form a cycle):")
            lines += stranded.map { "  \($0.name)  (\($0.id)) under \($0.parentID)" }
        }
        return lines
    }

    /// The most indent levels drawn as spaces: deeper lines would be mostly spaces.
    public static let maximumIndent = 40

    /// Two spaces per level up to `maximumIndent`, then the level itself: `(45) `.
    static func indentation(_ level: Int) -> String {
        let pad = String(repeating: "  ", count: min(level, maximumIndent))
        return level > maximumIndent ? pad + "(\(level)) " : pad
    }

    func childrenByParent() -> [String: [Node]] {
        var children: [String: [Node]] = [:]
        for node in nodes where !node.parentID.isEmpty { children[node.parentID, default: []].append(node) }
        return children
    }
}
