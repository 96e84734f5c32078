import Testing
@testable import Navigation
import RouteFiles

/// How a route file's scalars are typed: which spellings are ints, bools, doubles, null and strings,
/// quoting and tags, where each is read (a fact's default, `required`, a hint, a limit, a route's
/// body, a title). The expectations were recorded with the Yams-based reader, so the reader on
/// libyaml keeps them; the two it changes on purpose say why.
@Suite(.timeLimit(.minutes(1)))
struct RouteFileScalarTests {
    /// What loading `yaml` gave: `pick`'s description of the graph, or `error: PROBLEM`.
    static func outcome(_ yaml: String, _ pick: (RouteGraph) -> String) -> String {
        do {
            return pick(try RouteGraph.load(yaml: yaml, file: "s.yaml"))
        } catch {
            return "error: \(error.problem)"
        }
    }

    static func describe(_ value: ParamValue?) -> String {
        switch value {
        case .bool(let flag)?: "bool \(flag)"
        case .int(let number)?: "int \(number)"
        case .double(let number)?: "double \(number)"
        case .string(let text)?: "string \(text.debugDescription)"
        case nil: "none"
        }
    }

    static func factDefault(_ type: String, _ value: String) -> String {
        outcome("root: home\nfacts:\n  f:\n    type: \(type)\n    default: \(value)\nroutes:\n  home: {}\n") { describe($0.facts["f"]?.defaultValue) }
    }

    /// A fact's default of each type: `literal(_:as:)`, which also types handler params and `set-facts`.
    static let defaults: [(type: String, value: String, expected: String)] = [
        ("int", "0", "int 0"), ("int", "7", "int 7"), ("int", "-3", "int -3"), ("int", "+4", "int 4"),
        ("int", "0x1F", "int 31"), ("int", "-0x10", "int -16"), ("int", "0o17", "int 15"), ("int", "017", "int 15"),
        ("int", "0b101", "int 5"), ("int", "1_000", "int 1000"), ("int", "1:30", "int 90"), ("int", "-1:30", "int -90"),
        ("int", "1:2:3", "int 3723"), ("int", "08", "error: the default of fact 'f' must be int"),
        ("int", "-0", "error: the default of fact 'f' must be int"), ("int", "00", "int 0"),
        ("int", "'5'", "error: the default of fact 'f' must be int"), ("int", "\"5\"", "error: the default of fact 'f' must be int"),
        ("int", "!!str 5", "error: the default of fact 'f' must be int"), ("int", "!!int 5", "int 5"), ("int", "!custom 5", "int 5"),
        ("int", "5.0", "error: the default of fact 'f' must be int"), ("int", "1e3", "error: the default of fact 'f' must be int"),
        ("int", "~", "error: the default of fact 'f' must be int"), ("int", "", "error: the default of fact 'f' must be int"),
        ("int", "9223372036854775807", "int 9223372036854775807"),
        ("int", "9223372036854775808", "error: the default of fact 'f' must be int"),
        ("int", "|\n      5", "error: the default of fact 'f' must be int"),
        ("bool", "true", "bool true"), ("bool", "True", "bool true"), ("bool", "TRUE", "bool true"), ("bool", "tRuE", "bool true"),
        ("bool", "yes", "bool true"), ("bool", "Yes", "bool true"), ("bool", "YES", "bool true"), ("bool", "on", "bool true"),
        ("bool", "ON", "bool true"), ("bool", "false", "bool false"), ("bool", "no", "bool false"), ("bool", "Off", "bool false"),
        ("bool", "y", "error: the default of fact 'f' must be bool"), ("bool", "n", "error: the default of fact 'f' must be bool"),
        ("bool", "1", "error: the default of fact 'f' must be bool"), ("bool", "'true'", "error: the default of fact 'f' must be bool"),
        ("bool", "!!str true", "error: the default of fact 'f' must be bool"), ("bool", "!!bool yes", "bool true"),
        ("bool", "~", "error: the default of fact 'f' must be bool"),
        ("double", "1.5", "double 1.5"), ("double", "1", "double 1.0"), ("double", "-2", "double -2.0"), ("double", "0x10", "double 16.0"),
        ("double", "1e3", "double 1000.0"), ("double", "1_0.5", "double 10.5"), ("double", ".5", "double 0.5"),
        ("double", ".inf", "double inf"), ("double", "-.Inf", "double -inf"), ("double", "+.INF", "double inf"), ("double", ".NaN", "double nan"),
        ("double", "inf", "double inf"), ("double", "1:30.5", "double 90.5"), ("double", "'1.5'", "error: the default of fact 'f' must be double"),
        ("double", "!!str 1.5", "error: the default of fact 'f' must be double"), ("double", "1.5x", "error: the default of fact 'f' must be double"),
        ("double", "017", "double 17.0"),
        ("string", "x", "string \"x\""), ("string", "5", "string \"5\""), ("string", "yes", "string \"yes\""), ("string", "~", "string \"~\""),
        ("string", "null", "string \"null\""), ("string", "''", "string \"\""), ("string", "", "string \"\""), ("string", "'a ''b'''", "string \"a \\'b\\'\""),
        ("string", "\"tab\\there \\u00e9\"", "string \"tab\\there é\""), ("string", "!!int 5", "string \"5\""),
        ("string", "|\n      two\n      lines", "string \"two\\nlines\\n\""), ("string", ">\n      folded\n      line", "string \"folded line\\n\""),
        ("string", "a  b   # comment", "string \"a  b\""), ("string", "\"a # b\"", "string \"a # b\""),
    ]

    @Test(arguments: defaults.indices) func aFactDefault(_ index: Int) {
        let (type, value, expected) = Self.defaults[index]
        #expect(Self.factDefault(type, value) == expected, "\(type) default: \(value)")
    }

    /// `required:` of a param (a bool, but through `Node.bool`, without the style check of the literals).
    static let required: [(value: String, expected: String)] = [
        ("true", "required"), ("yes", "required"), ("On", "required"), ("false", "optional"), ("NO", "optional"),
        ("'true'", "error: expected true or false"), ("\"yes\"", "error: expected true or false"),
        ("!!str true", "error: expected true or false"), ("1", "error: expected true or false"), ("~", "error: expected true or false"),
        ("!custom yes", "required"), ("[true]", "error: expected true or false"),
    ]

    @Test(arguments: required.indices) func aRequiredFlag(_ index: Int) {
        let (value, expected) = Self.required[index]
        let yaml = "root: home\nroutes:\n  home: {}\n  item:\n    params:\n      id:\n        type: int\n        required: \(value)\n"
        #expect(Self.outcome(yaml) { $0.routes["item"]!.required.contains("id") ? "required" : "optional" } == expected, "required: \(value)")
    }

    /// A hint: a whole number unless it is tagged or quoted as a string; anything else scalar is its text.
    static let hints: [(value: String, expected: String)] = [
        ("3", "int 3"), ("'3'", "string 3"), ("\"3\"", "string 3"), ("!!str 3", "string 3"), ("0x10", "int 16"), ("1_000", "int 1000"),
        ("1.5", "string 1.5"), ("yes", "string yes"), ("~", "string ~"), ("", "string "), ("teal", "string teal"),
        ("'#ff0000'", "string #ff0000"), ("{ a: 1 }", "error: a hint is a string or a whole number"),
    ]

    @Test(arguments: hints.indices) func aHint(_ index: Int) {
        let (value, expected) = Self.hints[index]
        let yaml = "root: home\nroutes:\n  home:\n    hints:\n      h: \(value)\n"
        let result = Self.outcome(yaml) { graph in
            switch graph.routes["home"]!.hints["h"] {
            case .int(let number)?: "int \(number)"
            case .string(let text)?: "string \(text)"
            case nil: "none"
            }
        }
        #expect(result == expected, "hint: \(value)")
    }

    /// A limit: a whole number as `Node.int` reads it.
    static let limits: [(value: String, expected: String)] = [
        ("7", "7"), ("0x10", "16"), ("010", "8"), ("1_0", "10"), ("'7'", "error: expected a whole number"), ("7.0", "error: expected a whole number"),
        ("!!str 7", "7"), ("~", "error: expected a whole number"),
    ]

    @Test(arguments: limits.indices) func aLimit(_ index: Int) {
        let (value, expected) = Self.limits[index]
        #expect(Self.outcome("root: home\nlimits:\n  max-undo: \(value)\nroutes:\n  home: {}\n") { "\($0.limits.maxUndo)" } == expected, "max-undo: \(value)")
    }

    /// A route's body: a mapping, or empty (nothing, `''`, or tagged null) for a route with defaults only.
    static let bodies: [(value: String, expected: String)] = [
        ("", "bare"), ("''", "bare"), ("\"\"", "bare"), ("{}", "bare"), ("!!null x", "bare"), ("!!null", "bare"),
        ("~", "error: expected a mapping (key: value lines)"), ("null", "error: expected a mapping (key: value lines)"),
        ("[]", "error: expected a mapping (key: value lines)"), ("x", "error: expected a mapping (key: value lines)"),
    ]

    @Test(arguments: bodies.indices) func aRouteBody(_ index: Int) {
        let (value, expected) = Self.bodies[index]
        let yaml = "root: home\nroutes:\n  home: {}\n  bare: \(value)\n"
        #expect(Self.outcome(yaml) { $0.routes["bare"] == RouteSpec(name: "bare", title: "bare") ? "bare" : "other" } == expected, "bare: \(value)")
    }

    /// Titles, keys, tags, anchors and aliases, merge keys, documents.
    static let files: [(yaml: String, expected: String)] = [
        ("root: home\nroutes:\n  home: { title: 5 }\n", "title 5"),
        ("root: home\nroutes:\n  home: { title: !!int 5 }\n", "title 5"),
        ("root: home\nroutes:\n  home: { title: ~ }\n", "title ~"),
        ("root: home\nroutes:\n  home: { title: \"caf\\xe9\" }\n", "title café"),
        ("root: home\nroutes:\n  home: { title: [a] }\n", "error: expected a string"),
        ("!!str root: home\nroutes:\n  home: { title: t }\n", "title t"),
        ("'root': home\n\"routes\":\n  home: { title: t }\n", "title t"),
        ("root: home\nroutes:\n  home: { title: &t Shared }\n  other: { title: *t }\n", "title Shared"),
        ("root: home\nroutes:\n  home: { params: &p { id: int } }\n  other: { params: *p }\n", "title home"),
        ("root: home\nroutes:\n  home: { title: *nowhere }\n", "error: not valid YAML: found undefined alias at column 18"),
        ("root: home\nroutes:\n  home: &h { title: *h }\n", "error: not valid YAML: found undefined alias at column 21"),
        ("base: &b { title: t }\nroot: home\nroutes:\n  home:\n    <<: *b\n", "error: unknown key 'base'; known keys: tabs, selected-tab, root, routes, states, limits, facts, flows, guards, on, access"),
        ("root: home\nroutes:\n  home:\n    <<: { title: t }\n", "error: unknown key '<<'; known keys: title, params, presentations, link, tab, hints, requires, on"),
        ("root: home\nroutes:\n  ? [a]\n  : {}\n", "error: keys must be plain strings"),
        ("root: home\nroutes:\n  home: {}\n---\nroot: other\n", "error: not valid YAML: but found another document at column 1 (expected a single document in the stream at line 1, column 1)"),
        ("---\nroot: home\nroutes:\n  home: { title: t }\n...\n", "title t"),
        ("%YAML 1.1\n---\nroot: home\nroutes:\n  home: { title: t }\n", "title t"),
        // Yams refused a byte-order mark given as text (but `load(path:)` dropped it through Foundation):
        // both ways now read the file.
        ("\u{FEFF}root: home\nroutes:\n  home: { title: t }\n", "title t"),
        ("# only a comment\n", "error: the file is empty; it needs at least `routes:` and `tabs:` or `root:`"),
        ("---\n", "error: expected a mapping (key: value lines)"),
        // Yams' message for a reader error echoed the offending line, control character included, and no line number.
        ("root: home\nroutes:\n  home: { title: \"a\u{1}b\" }\n", "error: not valid YAML: control characters are not allowed at column 20"),
        ("root: home\nroutes:\n  home: {}\n  home: {}\n  x: {}\n  x: {}\n", "error: not valid YAML: the key 'home', 'x' appears twice in the mapping that starts here; keep one"),
        ("root: home\nroutes:\n  home:\n    hints: { a: 1, b: 2, a: 3 }\n", "error: not valid YAML: the key 'a' appears twice in the mapping that starts here; keep one"),
    ]

    @Test(arguments: files.indices) func aFile(_ index: Int) {
        let (yaml, expected) = Self.files[index]
        let result = Self.outcome(yaml) { "title \($0.routes["home"]!.title)" }
        #expect(result == expected, "\(yaml)")
    }
}
