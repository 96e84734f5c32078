import CYAML

/// Builds a route file's ``YAMLNode`` tree from libyaml's events, in time and memory bounded
/// whatever the file holds (`docs/reliability.md#bounded-route-files`).
///
/// Aliases are counted as they would expand before anything is built from them: an alias adds
/// the expanded size of the node it names, and more than ``maximumAliasNodes`` added in all
/// refuses the file, so a "billion laughs" file stops after a few events instead of exhausting
/// time or memory. Nesting deeper than ``maximumDepth`` (an alias counts at the depth it would
/// expand to) is refused too. Duplicate keys are found by comparing key texts, never by hashing
/// nodes (a shared node used as a key costs nothing to compare). Every refusal is a
/// ``RouteFileError`` naming the file and the line.
struct YAMLComposer {
    /// The most nodes aliases may add to a document by expanding, in all.
    static let maximumAliasNodes = 10_000
    /// The deepest nesting of mappings and sequences read, aliases expanded.
    static let maximumDepth = 64

    /// A node with what it would expand to: its node count and its nesting height (0 for a scalar).
    struct Measured {
        var node: YAMLNode
        var size: Int
        var height: Int
    }

    /// A mapping or sequence whose end event has not come yet; its nodes so far are the top of `pending` from `start` on.
    struct Frame {
        var isMapping: Bool
        var start: Int
        var line: Int
        var anchor: String?
        var size = 1
        var height = 1
    }

    let file: String
    var frames: [Frame] = []
    /// The nodes of every open collection, innermost last: each collection's array is made once, at its end, at its size.
    let pending = NodeStack()
    /// Each anchor's node, from the end of the node on (an alias inside its own anchor's node is
    /// undefined, as YAML says); a later anchor of the same name replaces it.
    var anchors: [String: Measured] = [:]
    /// The nodes aliases have added so far.
    var aliasNodes = 0
    var root: Measured?
    var documents = 0

    /// The single document in `bytes` (UTF-8, a leading byte-order mark skipped), nil when the
    /// stream holds none.
    static func compose(_ bytes: [UInt8], file: String) throws(RouteFileError) -> YAMLNode? {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(RouteFileError) -> YAMLNode? in
                var input = buffer
                if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = UnsafeBufferPointer(rebasing: input.dropFirst(3)) }
                guard let start = input.baseAddress, !input.isEmpty else { return nil }
                var composer = YAMLComposer(file: file)
                return try composer.run(UnsafeBufferPointer(start: start, count: input.count))
            }
        }
        return try result.get()
    }

    mutating func run(_ input: UnsafeBufferPointer<UInt8>) throws(RouteFileError) -> YAMLNode? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else { throw outOfMemory() }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, input.count)
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else { throw syntaxError(parser.pointee, input) }
            defer { yaml_event_delete(&event) }
            if try !handle(event) { return root?.node }
        }
    }

    /// Takes one event; false once the stream has ended.
    mutating func handle(_ event: yaml_event_t) throws(RouteFileError) -> Bool {
        let line = event.start_mark.line + 1
        let column = event.start_mark.column + 1
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return false
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw notValid(
                    "but found another document", line: line, column: column,
                    context: ("expected a single document in the stream", 1, 1))
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let style = YAMLScalar.Style(rawValue: data.style.rawValue) ?? .plain
            let tag = data.quoted_implicit == 1 ? YAMLScalar.stringTag : data.tag.map { String(cString: $0) } ?? ""
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let scalar = YAMLScalar(string: text, tag: tag, style: style, line: line, column: column)
            add(.scalar(scalar), size: 1, height: 0, anchor: data.anchor)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            guard frames.count < Self.maximumDepth else { throw tooDeep(line: line, column: column) }
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            frames.append(Frame(isMapping: isMapping, start: pending.count, line: line, anchor: anchor.map { String(cString: $0) }))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = frames.popLast() else { break }
            let nodes = pending.pop(from: frame.start)
            let node: YAMLNode
            if frame.isMapping {
                try checkUniqueKeys(nodes)
                node = .mapping(YAMLMapping(nodes: nodes, line: frame.line))
            } else {
                node = .sequence(YAMLSequence(items: nodes, line: frame.line))
            }
            if let anchor = frame.anchor { anchors[anchor] = Measured(node: node, size: frame.size, height: frame.height) }
            add(node, size: frame.size, height: frame.height, anchor: nil)
        case YAML_ALIAS_EVENT:
            let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
            guard let target = anchors[name] else {
                throw notValid("found undefined alias", line: line, column: column, context: nil)
            }
            aliasNodes += target.size
            if aliasNodes > Self.maximumAliasNodes { throw tooManyAliasNodes(line: line, column: column) }
            if frames.count + target.height > Self.maximumDepth { throw tooDeep(line: line, column: column) }
            add(target.node, size: target.size, height: target.height, anchor: nil)
        default:
            break
        }
        return true
    }

    /// Adds a finished node to the collection it is in (or makes it the root), naming it
    /// `anchor` when it has one.
    mutating func add(_ node: consuming YAMLNode, size: Int, height: Int, anchor: UnsafeMutablePointer<yaml_char_t>?) {
        if let anchor { anchors[String(cString: anchor)] = Measured(node: copy node, size: size, height: height) }
        guard !frames.isEmpty else {
            root = Measured(node: node, size: size, height: height)
            return
        }
        let top = frames.count - 1
        frames[top].size += size
        frames[top].height = max(frames[top].height, height + 1)
        pending.push(node)
    }

    /// Refuses a mapping in which two scalar keys have the same text, naming each such key and
    /// the line of the first one in sorted order.
    func checkUniqueKeys(_ nodes: [YAMLNode]) throws(RouteFileError) {
        var duplicates: [String] = []
        var firstLines: [String: Int] = [:]
        // Small mappings (nearly all of a route file's) are compared pairwise, without allocating.
        if nodes.count <= 16 {
            for index in stride(from: 2, to: nodes.count, by: 2) {
                guard case .scalar(let key) = nodes[index] else { continue }
                for earlier in stride(from: 0, to: index, by: 2) {
                    guard case .scalar(let other) = nodes[earlier], other.string == key.string else { continue }
                    if !duplicates.contains(key.string) {
                        duplicates.append(key.string)
                        firstLines[key.string] = other.line
                    }
                    break
                }
            }
        } else {
            var seen: [String: Int] = [:]
            for index in stride(from: 0, to: nodes.count, by: 2) {
                guard case .scalar(let key) = nodes[index] else { continue }
                if let line = seen[key.string] {
                    if firstLines.updateValue(line, forKey: key.string) == nil { duplicates.append(key.string) }
                } else {
                    seen[key.string] = key.line
                }
            }
        }
        guard !duplicates.isEmpty else { return }
        let sorted = duplicates.sorted()
        throw duplicateKeys(sorted, line: firstLines[sorted[0]] ?? 1)
    }
}

/// The composer's stack of nodes not yet in a collection: pushed one by one, then moved out, a
/// collection's at a time, into an array of exactly their count (no array grown node by node, no
/// node retained and released on the way).
final class NodeStack {
    private var base = UnsafeMutablePointer<YAMLNode>.allocate(capacity: 64)
    private var capacity = 64
    private(set) var count = 0

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func push(_ node: consuming YAMLNode) {
        if count == capacity {
            let larger = UnsafeMutablePointer<YAMLNode>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        (base + count).initialize(to: node)
        count += 1
    }

    /// The nodes from `start` to the top, in order, taken off the stack.
    func pop(from start: Int) -> [YAMLNode] {
        var nodes: [YAMLNode] = []
        nodes.reserveCapacity(count - start)
        for index in start..<count { nodes.append((base + index).move()) }
        count = start
        return nodes
    }
}
