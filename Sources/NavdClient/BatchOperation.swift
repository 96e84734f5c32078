import DBus

/// One argument of an Apply op, of one of the kinds `OperationDeclaration.Kind` names.
public enum BatchArgument: Hashable, Sendable {
    /// A string `s` (a route, target, style, tab, event, source, flow or output).
    case string(String)
    /// Params `a{sv}` (`params`, `facts`).
    case params(Params)
    /// Screens `a(sa{sv})` (`screens`).
    case screens([ScreenSpec])
    /// A revision `t` (`revision`).
    case revision(UInt64)

    /// The kind the value is of.
    public var kind: OperationDeclaration.Kind {
        switch self {
        case .string: .string
        case .params: .params
        case .screens: .screens
        case .revision: .revision
        }
    }

    /// The value as sent inside the op's `a{sv}` (of `kind.signature`).
    public var dbusValue: DBusValue {
        switch self {
        case .string(let text): .string(text)
        case .params(let params): params.dbusValue
        case .screens(let screens): ScreenSpec.dbusArray(screens)
        case .revision(let revision): .uint64(revision)
        }
    }
}

/// An op that does not fit its declaration in `OperationDeclaration.all`; nothing was sent.
public enum BatchOperationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No operation has this name.
    case unknownOperation(String)
    /// The operation takes no argument of this name.
    case unknownArgument(operation: String, argument: String)
    /// The operation needs this argument.
    case missingArgument(operation: String, argument: String)
    /// The argument holds another kind of value than declared.
    case wrongKind(operation: String, argument: String)

    /// What is wrong, and what the operation takes: navd's words for the same refusal.
    public var description: String {
        switch self {
        case .unknownOperation(let name):
            return OperationDeclaration.unknownOperationMessage(name)
        case .unknownArgument(let name, let key):
            return OperationDeclaration.named(name)!.unknownArgumentMessage(key)
        case .missingArgument(let name, let key):
            let declaration = OperationDeclaration.named(name)!
            return declaration.missingArgumentMessage(declaration.argument(key)!)
        case .wrongKind(let name, let key):
            let declaration = OperationDeclaration.named(name)!
            return declaration.wrongKindMessage(declaration.argument(key)!)
        }
    }
}

/// One operation of an `Apply` batch: the contract's Op `(sa{sv})`, checked against its declaration in
/// `OperationDeclaration.all` when made, so an op that would be refused for its shape is never sent.
public struct BatchOperation: Hashable, Sendable {
    /// Which operation it is (its raw value is the contract's name: `push`, `popto`, `send`, `setfacts`, …).
    public let kind: OperationKind
    /// The contract's name of the operation.
    public var name: String { kind.rawValue }
    /// The arguments by the contract's names; left-out optional ones are not sent.
    public let arguments: [String: BatchArgument]

    /// An op named `name` (the contract's name) with `arguments`; throws when the name is unknown, an
    /// argument is unknown or of another kind than declared, or a required one is missing.
    public init(_ name: String, _ arguments: [String: BatchArgument] = [:]) throws(BatchOperationError) {
        guard let kind = OperationKind(rawValue: name) else { throw .unknownOperation(name) }
        let declaration = kind.declaration
        for key in arguments.keys.sorted() {
            guard let argument = declaration.argument(key) else { throw .unknownArgument(operation: name, argument: key) }
            guard arguments[key]!.kind == argument.kind else { throw .wrongKind(operation: name, argument: key) }
        }
        for argument in declaration.arguments where argument.isRequired && arguments[argument.name] == nil {
            throw .missingArgument(operation: name, argument: argument.name)
        }
        self.init(checked: kind, spelled: arguments)
    }

    /// An op whose arguments fit its declaration by construction (the typed constructors of
    /// BatchOperation+Operations.swift), keyed by the contract's keys.
    init(checked kind: OperationKind, _ arguments: [OperationKey: BatchArgument]) {
        self.init(checked: kind, spelled: Dictionary(uniqueKeysWithValues: arguments.map { ($0.key.rawValue, $0.value) }))
    }

    /// An op whose arguments, by their spellings, fit its declaration.
    private init(checked kind: OperationKind, spelled arguments: [String: BatchArgument]) {
        self.kind = kind
        self.arguments = arguments
    }

    /// The op as `(sa{sv})`, its arguments in the declaration's order.
    public var dbusValue: DBusValue {
        let order = kind.declaration.arguments.map(\.name)
        let pairs = order.compactMap { key in arguments[key].map { (key, $0.dbusValue) } }
        return RawOperation.dbusValue(name: name, arguments: pairs)
    }
}

extension ScreenSpec {
    /// The screen as `(sa{sv})`.
    public var dbusValue: DBusValue { ScreenRequest.dbusValue(route: route, params: params) }

    /// A list of screens as `a(sa{sv})`.
    public static func dbusArray(_ screens: [ScreenSpec]) -> DBusValue {
        .array(element: WireSignature.namedDictionary, screens.map(\.dbusValue))
    }
}

extension Carried where Kind == ParamsReading {
    /// Params as the client sends them.
    public init(_ params: Params) { self.init(made: params.dbusValue) }
}

extension Carried where Kind == ScreensReading {
    /// Screens as the client sends them.
    public init(_ screens: [ScreenSpec]) { self.init(made: ScreenSpec.dbusArray(screens)) }
}

extension Carried where Kind == OperationsReading {
    /// Apply's ops as the client sends them.
    public init(_ operations: [BatchOperation]) {
        self.init(made: .array(element: WireSignature.namedDictionary, operations.map(\.dbusValue)))
    }
}
