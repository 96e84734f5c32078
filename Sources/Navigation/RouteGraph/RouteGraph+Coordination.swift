// What a route file declares for coordination: facts, flows, guards and the handlers of events.

/// A typed value the app owns and navd keeps durable (`facts:`).
public struct FactSpec: Hashable, Sendable {
    /// The fact's name.
    public var name: String
    /// Its declared type.
    public var type: ParamType
    /// Its value in a fresh state.
    public var defaultValue: ParamValue

    /// A fact named `name` of `type` starting at `defaultValue`.
    public init(name: String, type: ParamType, defaultValue: ParamValue) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

/// Declared params: types, order and which are required (a route's, a flow's or an output's).
public struct ParamDeclaration: Hashable, Sendable {
    /// Name to type.
    public var types: [String: ParamType]
    /// Names in the order the route file gives them.
    public var order: [String]
    /// The names that must be given.
    public var required: Set<String>

    /// A declaration; `order` defaults to the names sorted.
    public init(types: [String: ParamType] = [:], order: [String]? = nil, required: Set<String> = []) {
        self.types = types
        self.order = order ?? types.keys.sorted()
        self.required = required
    }
}

/// A child coordinator (`flows:`): its first screen, how that is shown, its params, outputs and handlers.
public struct FlowSpec: Hashable, Sendable {
    /// The flow's name, and the route of its first screen.
    public var name, start: String
    /// `push`, `sheet` or `cover`: how the first screen is shown.
    public var presentation: Presentation
    /// The params a start takes (read as `$flow.NAME`).
    public var params: ParamDeclaration
    /// What it can finish with, each with its params.
    public var outputs: [String: ParamDeclaration]
    /// Output names in declaration order.
    public var outputOrder: [String]
    /// Handlers for every screen inside the flow.
    public var on: Handlers

    /// A flow from its parts.
    public init(
        name: String, start: String, presentation: Presentation = .push, params: ParamDeclaration = ParamDeclaration(),
        outputs: [String: ParamDeclaration] = [:], outputOrder: [String]? = nil, on: Handlers = Handlers()
    ) {
        self.name = name
        self.start = start
        self.presentation = presentation
        self.params = params
        self.outputs = outputs
        self.outputOrder = outputOrder ?? outputs.keys.sorted()
        self.on = on
    }
}

/// What happens when a required fact is not true: the flow to start and the output that resumes the request.
public struct GuardSpec: Hashable, Sendable {
    /// The fact it guards, the flow started instead of the request, and the output of that flow that runs the
    /// kept request.
    public var fact, flow, resumeOn: String

    /// A guard of `fact` starting `flow`, resuming on `resumeOn`.
    public init(fact: String, flow: String, resumeOn: String) {
        self.fact = fact
        self.flow = flow
        self.resumeOn = resumeOn
    }
}

/// One scope's handlers: event name to handler, looked up in O(1).
public struct Handlers: Hashable, Sendable {
    /// The handler of each event.
    public var byEvent: [String: Handler]
    /// Event names in declaration order (GetEvents lists them so).
    public var order: [String]

    /// Handlers from a dictionary; `order` defaults to the names sorted.
    public init(_ byEvent: [String: Handler] = [:], order: [String]? = nil) {
        self.byEvent = byEvent
        self.order = order ?? byEvent.keys.sorted()
    }

    /// Whether no event is handled here.
    public var isEmpty: Bool { byEvent.isEmpty }
}

/// What an event (or an output) leads to: actions run in order as one change, or nothing (`none`).
public enum Handler: Hashable, Sendable {
    /// The event is handled and ignored.
    case ignore
    /// The actions, in order.
    case actions([Action])
}

/// A param value in a handler: a literal, or a reference read when the handler runs.
public enum ValueTemplate: Hashable, Sendable {
    /// A literal of the declared type.
    case literal(ParamValue)
    /// `$event.NAME`: the event's param.
    case event(String)
    /// `$screen.NAME`: the source screen's param.
    case screen(String)
    /// `$flow.NAME`: the innermost enclosing flow's param.
    case flow(String)
    /// `$output.NAME`: the finishing flow's output param (inside `on-output` only).
    case output(String)
}

/// Params in a handler, by name.
public typealias ParamTemplates = [String: ValueTemplate]

/// One screen of a `set-stack` action.
public struct ScreenTemplate: Hashable, Sendable {
    /// The route.
    public var route: String
    /// Its params.
    public var params: ParamTemplates

    /// A `route` screen with `params`.
    public init(route: String, params: ParamTemplates = [:]) {
        self.route = route
        self.params = params
    }
}

/// One action of a handler; each acts as the method it names does.
///
/// Not `indirect`: the only recursion (`start`'s `onOutput` handlers) goes through a dictionary and
/// an array, which are references already. Boxed cases would be held through pointers carrying the
/// enum's case in their spare bits, which LeakSanitizer does not recognise as pointers: every
/// action of a route graph kept for the whole run (navd's, the demo graph) was reported as leaked.
public enum Action: Hashable, Sendable {
    /// Push a screen (as Push).
    case push(route: String, params: ParamTemplates)
    /// Swap the top screen (as Replace).
    case replace(route: String, params: ParamTemplates)
    /// Present a layer (as Present).
    case present(route: String, style: ModalStyle, params: ParamTemplates)
    /// As Pop, PopToRoot (`root`), Dismiss, DismissAll (`dismiss-all`) and Back.
    case pop, popToRoot, dismiss, dismissAll, back
    /// As PopTo.
    case popTo(String)
    /// As SelectTab (`tab`).
    case selectTab(String)
    /// As Open: a named state or a link.
    case open(String)
    /// SetStack.
    case setStack([ScreenTemplate])
    /// Start a flow; `onOutput` handles its outputs when it finishes.
    case start(flow: String, params: ParamTemplates, onOutput: [String: Handler])
    /// Finish the innermost flow enclosing the source.
    case finish(output: String, params: ParamTemplates)
    /// Set facts.
    case setFacts(ParamTemplates)

    /// The Apply op the action runs.
    public var kind: OperationKind {
        switch self {
        case .push: .push
        case .replace: .replace
        case .present: .present
        case .pop: .pop
        case .popToRoot: .popToRoot
        case .dismiss: .dismiss
        case .dismissAll: .dismissAll
        case .back: .back
        case .popTo: .popTo
        case .selectTab: .selectTab
        case .open: .open
        case .setStack: .setStack
        case .start: .start
        case .finish: .finish
        case .setFacts: .setFacts
        }
    }

    /// The verb as the route file writes it (its op's `routeFileVerb`).
    public var verb: String { kind.declaration.routeFileVerb ?? kind.rawValue }
}

extension RouteSpec {
    /// The route's params as a declaration.
    public var declaration: ParamDeclaration { ParamDeclaration(types: params, order: paramOrder, required: required) }
}
