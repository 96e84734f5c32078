// navd's own YAML node tree, built from libyaml's events by `YAMLComposer`: just what the
// route-file reader needs (the three kinds, each node's line, a scalar's text, tag and style).
// An alias is the node its anchor names, shared, not copied: the arrays below are copy-on-write,
// so a file's tree takes memory in proportion to the file, whatever its aliases expand to.

/// One node of a route file's YAML document.
enum YAMLNode {
    case scalar(YAMLScalar)
    case mapping(YAMLMapping)
    case sequence(YAMLSequence)

    /// The 1-based line the node starts on.
    var line: Int {
        switch self {
        case .scalar(let scalar): scalar.line
        case .mapping(let mapping): mapping.line
        case .sequence(let sequence): sequence.line
        }
    }

    /// The scalar, when the node is one.
    var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The node as a whole number (`YAMLScalar.int`), or nil.
    var int: Int? { scalar?.int }
    /// The node as a bool (`YAMLScalar.bool`), or nil.
    var bool: Bool? { scalar?.bool }
    /// The node as a double (`YAMLScalar.float`), or nil.
    var float: Double? { scalar?.float }
}

/// A scalar: its text as written (after YAML's quoting and folding), its tag and its style.
struct YAMLScalar {
    /// How the scalar was written; the raw values are libyaml's `yaml_scalar_style_t`.
    enum Style: UInt32 {
        case plain = 1, singleQuoted, doubleQuoted, literal, folded
    }

    /// The YAML 1.1 tag of strings, in full (`!!str` in a file).
    static let stringTag = "tag:yaml.org,2002:str"

    /// The text.
    var string: String
    /// The explicit tag in full (`tag:yaml.org,2002:int` for `!!int`), ``stringTag`` for a quoted or
    /// block scalar without one, empty for a plain scalar without one.
    var tag: String
    var style: Style
    /// The 1-based line and column of the scalar's first character.
    var line: Int
    var column: Int

    /// Whether the scalar is a string whatever its text: tagged `!!str`, or quoted or a block.
    var isString: Bool { tag.hasSuffix("str") || style != .plain }

    /// Whether the scalar stands for "nothing here": empty (written as nothing or as `''`) or
    /// tagged `!!null`. A plain `~` or `null` is not, as route files have always been read
    /// (`RouteFileScalarTests` pins it).
    var isEmptyOrTaggedNull: Bool { string.isEmpty || tag.hasSuffix("null") }
}

/// A mapping: its key–value pairs in file order (keys are unique scalars or other nodes).
struct YAMLMapping: RandomAccessCollection {
    /// Keys and values alternating: key 0, value 0, key 1, value 1, …
    var nodes: [YAMLNode]
    var line: Int

    var startIndex: Int { 0 }
    var endIndex: Int { nodes.count / 2 }
    subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) { (nodes[2 * position], nodes[2 * position + 1]) }
}

/// A sequence: its items in file order.
struct YAMLSequence: RandomAccessCollection {
    var items: [YAMLNode]
    var line: Int

    var startIndex: Int { 0 }
    var endIndex: Int { items.count }
    subscript(position: Int) -> YAMLNode { items[position] }
}
