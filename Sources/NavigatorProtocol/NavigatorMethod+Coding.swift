import DBus
import Navigation
import Synchronization

// What NavigatorMethod.swift's per-method declarations are made into: each method's spec, read into its call form
// and full declaration on first use; a call's method and values; and the types `NavigatorCall.meaning` answers in.
// A new method touches none of this.

extension NavigatorMethod {
    static let specs: [Spec] = allCases.map(\.spec)
    static let byName: [String: NavigatorMethod] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    /// A method's name, out-arguments, documentation and whether it changes the tree, written once per case in
    /// `spec`; its in-arguments come from its case's arguments value, read only when first needed (`coded`).
    struct Spec {
        let name: String
        let outArguments: [ArgumentDeclaration]
        let changesTree: Bool
        let documentation: String
        let makeForm: @Sendable () -> CallForm

        /// `call` is the method's case of `NavigatorCall`: its arguments value declares the in-arguments.
        init<Arguments: MethodArguments>(
            _ name: String, _ call: @escaping @Sendable (Arguments) -> NavigatorCall, out outArguments: [ArgumentDeclaration],
            changesTree: Bool, _ documentation: String
        ) {
            self.name = name
            self.outArguments = outArguments
            self.changesTree = changesTree
            self.documentation = documentation
            makeForm = { CallForm(call) }
        }
    }

    /// A method's form and full declaration, made on first use, one method at a time: making an arguments
    /// value's coding instantiates its key paths and generic metadata, which for all 33 methods at once was a
    /// tenth of a cold `navctl push`'s CPU, and navctl needs one. A class, so that handing it out of the cache for
    /// each call is one reference counted, not a struct of closures and strings copied and destroyed.
    final class Coded: Sendable {
        let form: CallForm
        let declaration: MethodDeclaration

        init(form: CallForm, declaration: MethodDeclaration) {
            self.form = form
            self.declaration = declaration
        }
    }

    private static let codedCache = Mutex<[Coded?]>(Array(repeating: nil, count: allCases.count))

    var coded: Coded {
        if let known = Self.codedCache.withLock({ $0[rawValue] }) { return known }
        let spec = Self.specs[rawValue]
        let form = spec.makeForm()
        let made = Coded(
            form: form,
            declaration: MethodDeclaration(spec.name, in: form.declarations, out: spec.outArguments, documentation: spec.documentation))
        Self.codedCache.withLock { $0[rawValue] = made }
        return made
    }
}

extension NavigatorCall {
    /// Reads a call of `method` from its values, as the method's declaration says; throws `InvalidArgs` naming the
    /// first argument that does not fit.
    public init(_ method: NavigatorMethod, values: [DBusValue]) throws(DBusError) {
        self = try method.form.decode(values)
    }

    /// The method called.
    public var method: NavigatorMethod { parts.method }

    /// The arguments' values, in the declared order.
    public var values: [DBusValue] { parts.arguments.values }
}

/// How a method's call is made of its arguments value: the case of `NavigatorCall` that `NavigatorMethod`'s spec
/// names, whose value's coding gives the declared arguments and the decoding.
struct CallForm: Sendable {
    /// The arguments as declared.
    let declarations: [ArgumentDeclaration]
    /// Reads a call's values into its case.
    let decode: @Sendable ([DBusValue]) throws(DBusError) -> NavigatorCall

    /// The form of the case `make`.
    init<Arguments: MethodArguments>(_ make: @escaping @Sendable (Arguments) -> NavigatorCall) {
        declarations = Arguments.declarations
        decode = { values throws(DBusError) in make(try Arguments(values: values)) }
    }
}

extension NavigatorMethod {
    /// The cause of the changes a call of it makes: its name in lower case (`popto`, `setfacts`, `apply`); nil for a
    /// method that does not change the tree itself (a reader, or `Reload`, whose change is a `reconcile`).
    public var changeCause: ChangeCause? { changesTree ? ChangeCause(rawValue: name.lowercased()) : nil }
}

/// What a call asks of the navigator, declared with the contract: a change (the model's operation, and what its
/// reply carries besides the revision), a reading answered from the navigator's state alone, or a call only the
/// service answers, because it needs more than the state (route files, the callers' records, the graphs a
/// recording carries). `NavigatorCall.meaning` says it for every method, so a method the contract gains is placed
/// here before anything compiles, and the daemon answers changes and readings with no code of its own.
public enum CallMeaning {
    /// A change: the operation the model performs, and the reply's shape.
    case change(Operation, reply: ChangeReply)
    /// A reading: the reply's values, from the navigator's state; a refusal is the error the caller gets.
    case reading((Coordinator) throws(DBusError) -> [DBusValue])
    /// A call the service answers itself (`Reload`, `GetChanges`, `Export`).
    case service
}

/// The reply of a call that changes the tree: the revision after it (for a no-op, the current one), and for some
/// methods one value more.
public enum ChangeReply: Hashable, Sendable {
    /// `t revision`.
    case revision
    /// `(t revision, s id)`: the screen the call made, or, redirected, the screen now on top.
    case revisionAndId
    /// `(t revision, s outcome)`: what Send's handler did.
    case revisionAndOutcome
    /// `(t revision, s flow_id)`: the flow instance Start made.
    case revisionAndFlowId

    /// The reply's values for `change`; `topId` gives the id of the screen on top after it (asked only when the
    /// change made no screen), so that the caller need not copy its whole state to pass it.
    public func values(of change: Change, topId: () -> String) -> [DBusValue] {
        switch self {
        case .revision: [.uint64(change.revision)]
        case .revisionAndId: [.uint64(change.revision), .string(change.newScreenId ?? topId())]
        case .revisionAndOutcome: [.uint64(change.revision), .string(change.outcome.rawValue)]
        case .revisionAndFlowId: [.uint64(change.revision), .string(change.newFlowID ?? "")]
        }
    }
}

/// `body`'s value; a refusal of the model becomes the D-Bus error of its name.
func refusing<Value>(_ body: () throws(NavigationError) -> Value) throws(DBusError) -> Value {
    do { return try body() } catch { throw DBusError(error) }
}
