/// One Apply operation as the contract declares it: its name, the other names navctl accepts for it, its
/// arguments, and the `Operation` its checked arguments make.
///
/// `OperationDeclaration.all` is the one list of Apply's operations. The daemon's parsing
/// (`RawOperation.parsed()`), the client's op type (`BatchOperation`) and navctl's batch-file reading all
/// derive from it; NavigatorProtocol maps each argument kind to its D-Bus signature.
public struct OperationDeclaration: Sendable {
    /// What an argument holds on the wire.
    public enum Kind: Sendable, Hashable {
        /// A string `s`.
        case string
        /// Params `a{sv}` (an empty array is taken for an empty dict).
        case params
        /// Screens `a(sa{sv})`: each a route and its params.
        case screens

        /// How messages name it: `a string`, `a dict a{sv}`, `an array a(sa{sv})`.
        public var described: String {
            switch self {
            case .string: "a string"
            case .params: "a dict a{sv}"
            case .screens: "an array a(sa{sv})"
            }
        }
    }

    /// One argument: its name in the op's dict, what it holds, and whether the op needs it.
    public struct Argument: Sendable, Hashable {
        /// The key in the op's `a{sv}`.
        public let name: String
        /// What its value holds.
        public let kind: Kind
        /// False: it may be left out (a string then reads as `""`, params as `{}`).
        public let isRequired: Bool
    }

    /// The contract's name: the method's name in lower case (`popto`).
    public let name: String
    /// The other names navctl takes in a batch file, its commands' (`pop-to`); the daemon takes only `name`.
    public let spellings: [String]
    /// The arguments, in the order the contract lists them.
    public let arguments: [Argument]
    /// The operation, from arguments already checked against `arguments`.
    let make: @Sendable (CheckedArguments) -> Operation

    /// The argument called `key`, if the op takes one.
    public func argument(_ key: String) -> Argument? { arguments.first { $0.name == key } }

    /// `takes route, params` or `takes no arguments`: how messages say what the op takes.
    public var takesDescription: String {
        arguments.isEmpty ? "takes no arguments" : "takes \(arguments.map(\.name).joined(separator: ", "))"
    }
}

// The refusals of an op that does not fit its declaration, worded once for navd's `InvalidOperation` and the
// client's `BatchOperationError`.
extension OperationDeclaration {
    /// `unknown operation 'jump'; use one of push, pop, …`.
    public static func unknownOperationMessage(_ name: String) -> String {
        "unknown operation '\(name)'; use one of \(all.map(\.name).joined(separator: ", "))"
    }

    /// `pop has no argument 'route'; it takes no arguments`.
    public func unknownArgumentMessage(_ key: String) -> String { "\(name) has no argument '\(key)'; it \(takesDescription)" }

    /// `send needs argument 'event' (a string)`.
    public func missingArgumentMessage(_ argument: Argument) -> String {
        "\(name) needs argument '\(argument.name)' (\(argument.kind.described))"
    }

    /// `argument 'route' of push must be a string` (navd adds what it got instead).
    public func wrongKindMessage(_ argument: Argument) -> String {
        "argument '\(argument.name)' of \(name) must be \(argument.kind.described)"
    }
}

extension OperationDeclaration {
    /// Every Apply operation, in the contract's order.
    public static let all: [OperationDeclaration] = [
        OperationDeclaration("push", [.required("route"), .params]) { .push(route: $0.string("route"), params: $0.params()) },
        OperationDeclaration("pop") { _ in .pop },
        OperationDeclaration("popto", spellings: ["pop-to"], [.required("target")]) { .popTo(target: $0.string("target")) },
        OperationDeclaration("poptoroot", spellings: ["root", "pop-to-root"]) { _ in .popToRoot },
        OperationDeclaration("replace", [.required("route"), .params]) {
            .replace(route: $0.string("route"), params: $0.params())
        },
        OperationDeclaration("setstack", spellings: ["set-stack"], [.required("screens", .screens)]) { .setStack($0.screens) },
        OperationDeclaration("present", [.required("route"), .params, .required("style")]) {
            .present(route: $0.string("route"), params: $0.params(), style: $0.string("style"))
        },
        OperationDeclaration("dismiss") { _ in .dismiss },
        OperationDeclaration("dismissall", spellings: ["dismiss-all"]) { _ in .dismissAll },
        OperationDeclaration("back") { _ in .back },
        OperationDeclaration("selecttab", spellings: ["tab", "select-tab"], [.required("tab")]) { .selectTab($0.string("tab")) },
        OperationDeclaration("open", [.required("target")]) { .open($0.string("target")) },
        OperationDeclaration("send", [.required("event"), .optional("source"), .params]) {
            .send(source: $0.string("source"), event: $0.string("event"), params: $0.params(), expectedRevision: 0)
        },
        OperationDeclaration("start", [.required("flow"), .params]) { .start(flow: $0.string("flow"), params: $0.params()) },
        OperationDeclaration("finish", [.required("output"), .params]) {
            .finish(output: $0.string("output"), params: $0.params())
        },
        OperationDeclaration("setfacts", spellings: ["set-facts", "facts"], [.required("facts", .params)]) {
            .setFacts($0.params("facts"))
        },
    ]

    /// The operation the contract calls `name` (exactly: the daemon takes no other spelling).
    public static func named(_ name: String) -> OperationDeclaration? { all.first { $0.name == name } }

    /// The operation `word` names, by the contract's name or one of navctl's, in any case.
    public static func spelled(_ word: String) -> OperationDeclaration? {
        let lowered = word.lowercased()
        return all.first { $0.name == lowered || $0.spellings.contains(lowered) }
    }

    init(_ name: String, spellings: [String] = [], _ arguments: [Argument] = [],
         make: @escaping @Sendable (CheckedArguments) -> Operation) {
        self.name = name
        self.spellings = spellings
        self.arguments = arguments
        self.make = make
    }
}

extension OperationDeclaration.Argument {
    /// A string the op needs.
    static func required(_ name: String, _ kind: OperationDeclaration.Kind = .string) -> Self {
        Self(name: name, kind: kind, isRequired: true)
    }

    /// A string the op may be given.
    static func optional(_ name: String) -> Self { Self(name: name, kind: .string, isRequired: false) }

    /// `params`, which may be left out.
    static let params = Self(name: "params", kind: .params, isRequired: false)
}

/// An op's arguments once checked against its declaration: each of the declared kind, every required one there.
struct CheckedArguments {
    var strings: [String: String] = [:]
    var dicts: [String: InputParams] = [:]
    var screens: [ScreenRequest] = []

    /// The string argument `key`, `""` when it was left out.
    func string(_ key: String) -> String { strings[key] ?? "" }

    /// The params argument `key`, `{}` when it was left out.
    func params(_ key: String = "params") -> InputParams { dicts[key] ?? [:] }
}
