import DBus
import Navigation

/// A call of a method of `org.navd.Navigator1` with its arguments as one typed value (NavigatorCall+Arguments.swift),
/// one case per `NavigatorMethod`: what the daemon's handlers receive and what the clients' requests build. The
/// method's declaration takes its arguments from the case's value (`NavigatorMethod`'s spec names the case), so the
/// introspection, the daemon's decoding and the clients' encoding cannot disagree.
public enum NavigatorCall: Hashable, Sendable {
    case push(RouteArguments), pop(NoArguments), popTo(TargetArguments), popToRoot(NoArguments), replace(RouteArguments)
    case setStack(ScreensArguments), present(PresentArguments), dismiss(NoArguments), dismissAll(NoArguments)
    case back(NoArguments), selectTab(TabArguments), open(TargetArguments), apply(ApplyArguments), undo(NoArguments)
    case redo(NoArguments), getState(NoArguments), getTree(NoArguments), getRoutes(NoArguments), history(LimitArguments)
    case send(SendArguments), start(StartArguments), finish(FinishArguments), setFacts(FactsArguments)
    case getFlows(NoArguments), getEvents(SourceArguments), resolve(ResolveArguments), reload(NoArguments)
    case getEventParams(SourceArguments), getTreeAt(RevisionArguments), revert(RevertArguments)
    case getChanges(ChangesArguments), export(ExportArguments), getLimits(NoArguments)

    /// Reads a call of `method` from its values, as the method's declaration says; throws `InvalidArgs` naming the
    /// first argument that does not fit.
    public init(_ method: NavigatorMethod, values: [DBusValue]) throws(DBusError) {
        self = try method.form.decode(values)
    }

    /// The method called.
    public var method: NavigatorMethod { parts.method }

    /// The arguments' values, in the declared order.
    public var values: [DBusValue] { parts.arguments.values }

    /// The method and its arguments value.
    private var parts: (method: NavigatorMethod, arguments: any MethodArguments) {
        switch self {
        case .push(let arguments): (.push, arguments)
        case .pop(let arguments): (.pop, arguments)
        case .popTo(let arguments): (.popTo, arguments)
        case .popToRoot(let arguments): (.popToRoot, arguments)
        case .replace(let arguments): (.replace, arguments)
        case .setStack(let arguments): (.setStack, arguments)
        case .present(let arguments): (.present, arguments)
        case .dismiss(let arguments): (.dismiss, arguments)
        case .dismissAll(let arguments): (.dismissAll, arguments)
        case .back(let arguments): (.back, arguments)
        case .selectTab(let arguments): (.selectTab, arguments)
        case .open(let arguments): (.open, arguments)
        case .apply(let arguments): (.apply, arguments)
        case .undo(let arguments): (.undo, arguments)
        case .redo(let arguments): (.redo, arguments)
        case .getState(let arguments): (.getState, arguments)
        case .getTree(let arguments): (.getTree, arguments)
        case .getRoutes(let arguments): (.getRoutes, arguments)
        case .history(let arguments): (.history, arguments)
        case .send(let arguments): (.send, arguments)
        case .start(let arguments): (.start, arguments)
        case .finish(let arguments): (.finish, arguments)
        case .setFacts(let arguments): (.setFacts, arguments)
        case .getFlows(let arguments): (.getFlows, arguments)
        case .getEvents(let arguments): (.getEvents, arguments)
        case .resolve(let arguments): (.resolve, arguments)
        case .reload(let arguments): (.reload, arguments)
        case .getEventParams(let arguments): (.getEventParams, arguments)
        case .getTreeAt(let arguments): (.getTreeAt, arguments)
        case .revert(let arguments): (.revert, arguments)
        case .getChanges(let arguments): (.getChanges, arguments)
        case .export(let arguments): (.export, arguments)
        case .getLimits(let arguments): (.getLimits, arguments)
        }
    }
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
