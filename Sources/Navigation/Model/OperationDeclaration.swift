/// Apply's operations, one case each, in the contract's order: the one table of them. The raw value is the
/// contract's name of the op (`popto`), which is also the cause of the change it makes.
///
/// The daemon's parsing (`RawOperation.parsed()`), the route file's actions (`Action.kind`, the verbs
/// RouteFiles reads), the client's op type (`BatchOperation`) and navctl's spellings all derive from it;
/// NavigatorProtocol maps each argument kind to its D-Bus signature and adds navctl's longer spellings.
public enum OperationKind: String, Hashable, Sendable, CaseIterable {
    case push, pop, popTo = "popto", popToRoot = "poptoroot", replace, setStack = "setstack", present, dismiss
    case dismissAll = "dismissall", back, selectTab = "selecttab", open, send, start, finish, setFacts = "setfacts", revert

    /// The op's declaration: its arguments, its route-file verb, and the `Operation` they make.
    public var declaration: OperationDeclaration { OperationDeclaration.byKind[self]! }

    /// The op whose route-file verb is `verb` (`pop-to`, `root`, `set-facts`), if there is one.
    public init?(routeFileVerb verb: String) {
        guard let kind = OperationDeclaration.byRouteFileVerb[verb] else { return nil }
        self = kind
    }
}

/// One Apply operation as the contract declares it: its name, its route-file verb, its arguments, and the
/// `Operation` its checked arguments make.
public struct OperationDeclaration: Sendable {
    /// What an argument holds on the wire.
    public enum Kind: Sendable, Hashable {
        /// A string `s`.
        case string
        /// Params `a{sv}` (an empty array is taken for an empty dict).
        case params
        /// Screens `a(sa{sv})`: each a route and its params.
        case screens
        /// A revision `t`.
        case revision

        /// How messages name it: `a string`, `a dict a{sv}`, `an array a(sa{sv})`.
        public var described: String {
            switch self {
            case .string: "a string"
            case .params: "a dict a{sv}"
            case .screens: "an array a(sa{sv})"
            case .revision: "a revision t"
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

    /// Which op it is.
    public let kind: OperationKind
    /// How a route file's action writes the op (`pop-to`, `root`, `set-facts`); nil for an op a route file
    /// cannot write (`send`).
    public let routeFileVerb: String?
    /// The arguments, in the order the contract lists them.
    public let arguments: [Argument]
    /// The operation, from arguments already checked against `arguments`.
    let make: @Sendable (CheckedArguments) -> Operation

    /// The contract's name: the method's name in lower case (`popto`).
    public var name: String { kind.rawValue }

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

extension OperationKind {
    /// The declaration of each op, from its case.
    fileprivate var made: OperationDeclaration {
        switch self {
        case .push: OperationDeclaration(self, [.required(.route), .params]) { .push(route: $0.string(.route), params: $0.params()) }
        case .pop: OperationDeclaration(self) { _ in .pop }
        case .popTo: OperationDeclaration(self, verb: "pop-to", [.required(.target)]) { .popTo(target: $0.string(.target)) }
        case .popToRoot: OperationDeclaration(self, verb: "root") { _ in .popToRoot }
        case .replace:
            OperationDeclaration(self, [.required(.route), .params]) { .replace(route: $0.string(.route), params: $0.params()) }
        case .setStack: OperationDeclaration(self, verb: "set-stack", [.required(.screens, .screens)]) { .setStack($0.screens) }
        case .present:
            OperationDeclaration(self, [.required(.route), .params, .required(.style)]) {
                .present(route: $0.string(.route), params: $0.params(), style: $0.string(.style))
            }
        case .dismiss: OperationDeclaration(self) { _ in .dismiss }
        case .dismissAll: OperationDeclaration(self, verb: "dismiss-all") { _ in .dismissAll }
        case .back: OperationDeclaration(self) { _ in .back }
        case .selectTab: OperationDeclaration(self, verb: "tab", [.required(.tab)]) { .selectTab($0.string(.tab)) }
        case .open: OperationDeclaration(self, [.required(.target)]) { .open($0.string(.target)) }
        case .send:
            OperationDeclaration(self, inRouteFiles: false, [.required(.event), .optional(.source), .params]) {
                .send(source: $0.string(.source), event: $0.string(.event), params: $0.params(), expectedRevision: 0)
            }
        case .start: OperationDeclaration(self, [.required(.flow), .params]) { .start(flow: $0.string(.flow), params: $0.params()) }
        case .finish:
            OperationDeclaration(self, [.required(.output), .params]) { .finish(output: $0.string(.output), params: $0.params()) }
        case .setFacts: OperationDeclaration(self, verb: "set-facts", [.required(.facts, .params)]) { .setFacts($0.params(.facts)) }
        case .revert:
            OperationDeclaration(self, inRouteFiles: false, [.required(.revision, .revision)]) {
                .revert(revision: $0.revision(.revision), expectedRevision: 0)
            }
        }
    }
}

extension OperationDeclaration {
    /// Every Apply operation, in the contract's order.
    public static let all: [OperationDeclaration] = OperationKind.allCases.map(\.made)
    fileprivate static let byKind = Dictionary(uniqueKeysWithValues: all.map { ($0.kind, $0) })
    fileprivate static let byRouteFileVerb = Dictionary(
        uniqueKeysWithValues: all.compactMap { declaration in declaration.routeFileVerb.map { ($0, declaration.kind) } })

    /// The operation the contract calls `name` (exactly: the daemon takes no other spelling).
    public static func named(_ name: String) -> OperationDeclaration? { OperationKind(rawValue: name)?.declaration }

    /// The op's declaration; `verb` is how a route file writes it when that is not its name.
    init(_ kind: OperationKind, verb: String? = nil, inRouteFiles: Bool = true, _ arguments: [Argument] = [],
         make: @escaping @Sendable (CheckedArguments) -> Operation) {
        self.kind = kind
        self.routeFileVerb = inRouteFiles ? verb ?? kind.rawValue : nil
        self.arguments = arguments
        self.make = make
    }
}

extension OperationDeclaration.Argument {
    /// A string the op needs.
    static func required(_ key: OperationKey, _ kind: OperationDeclaration.Kind = .string) -> Self {
        Self(name: key.rawValue, kind: kind, isRequired: true)
    }

    /// A string the op may be given.
    static func optional(_ key: OperationKey) -> Self { Self(name: key.rawValue, kind: .string, isRequired: false) }

    /// `params`, which may be left out.
    static let params = Self(name: OperationKey.params.rawValue, kind: .params, isRequired: false)
}

/// The keys of an Apply op's `a{sv}`, as the contract spells them: the op table and the clients' typed ops use these
/// cases, so a misspelt key does not compile.
public enum OperationKey: String, Hashable, Sendable, CaseIterable {
    case route, params, target, screens, style, tab, event, source, flow, output, facts, revision
}

/// An op's arguments once checked against its declaration: each of the declared kind, every required one there.
struct CheckedArguments {
    var strings: [String: String] = [:]
    var dicts: [String: InputParams] = [:]
    var screens: [ScreenRequest] = []
    var revisions: [String: UInt64] = [:]

    /// The string argument `key`, `""` when it was left out.
    func string(_ key: OperationKey) -> String { strings[key.rawValue] ?? "" }

    /// The params argument `key`, `{}` when it was left out.
    func params(_ key: OperationKey = .params) -> InputParams { dicts[key.rawValue] ?? [:] }

    /// The revision argument `key`, 0 when it was left out.
    func revision(_ key: OperationKey) -> UInt64 { revisions[key.rawValue] ?? 0 }
}
