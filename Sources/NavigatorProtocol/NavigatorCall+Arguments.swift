import DBus

// The arguments value of each method of `NavigatorCall` (NavigatorMethod.swift): each field named once, as the contract names it, with
// the type it travels as (ArgumentCoding.swift).

/// The arguments of `Push` and `Replace`: `(s route, a{sv} params)`.
public struct RouteArguments: MethodArguments {
    /// The new screen's route.
    public var route: String
    /// Its params.
    public var params: CallParams
    /// The arguments, field by field.
    public init(route: String, params: CallParams) { self.route = route; self.params = params }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("route", \.route), ("params", \.params))
}

/// The arguments of `Present`: `(s route, a{sv} params, s style)`.
public struct PresentArguments: MethodArguments {
    /// The layer's root screen's route.
    public var route: String
    /// Its params.
    public var params: CallParams
    /// `sheet` or `cover` (any other is the daemon's to refuse).
    public var style: String
    /// The arguments, field by field.
    public init(route: String, params: CallParams, style: String) { self.route = route; self.params = params; self.style = style }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("route", \.route), ("params", \.params), ("style", \.style))
}

/// The arguments of `PopTo` and `Open`: `(s target)`.
public struct TargetArguments: MethodArguments {
    /// A screen id or route (PopTo); a link or named state (Open).
    public var target: String
    /// The arguments, field by field.
    public init(target: String) { self.target = target }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("target", \.target))
}

/// The arguments of `SetStack`: `(a(sa{sv}) screens)`.
public struct ScreensArguments: MethodArguments {
    /// The new stack, root first.
    public var screens: CallScreens
    /// The arguments, field by field.
    public init(screens: CallScreens) { self.screens = screens }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("screens", \.screens))
}

/// The arguments of `SelectTab`: `(s tab)`.
public struct TabArguments: MethodArguments {
    /// The tab to select.
    public var tab: String
    /// The arguments, field by field.
    public init(tab: String) { self.tab = tab }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("tab", \.tab))
}

/// The arguments of `Apply`: `(a(sa{sv}) ops, t expected_revision)`.
public struct ApplyArguments: MethodArguments {
    /// The ops, in order.
    public var ops: CallOperations
    /// 0 skips the StaleRevision check.
    public var expectedRevision: UInt64
    /// The arguments, field by field.
    public init(ops: CallOperations, expectedRevision: UInt64) { self.ops = ops; self.expectedRevision = expectedRevision }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("ops", \.ops), ("expected_revision", \.expectedRevision))
}

/// The arguments of `History`: `(u limit)`.
public struct LimitArguments: MethodArguments {
    /// How many changes at most.
    public var limit: UInt32
    /// The arguments, field by field.
    public init(limit: UInt32) { self.limit = limit }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("limit", \.limit))
}

/// The arguments of `Send`: `(s source, s event, a{sv} params, t expected_revision)`.
public struct SendArguments: MethodArguments {
    /// The screen that sends (`""`: the top).
    public var source: String
    /// The event.
    public var event: String
    /// Its params.
    public var params: CallParams
    /// 0 skips the StaleRevision check.
    public var expectedRevision: UInt64
    /// The arguments, field by field.
    public init(source: String, event: String, params: CallParams, expectedRevision: UInt64) {
        self.source = source
        self.event = event
        self.params = params
        self.expectedRevision = expectedRevision
    }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(
        Self.init, ("source", \.source), ("event", \.event), ("params", \.params), ("expected_revision", \.expectedRevision))
}

/// The arguments of `Start`: `(s flow, a{sv} params)`.
public struct StartArguments: MethodArguments {
    /// The flow to start.
    public var flow: String
    /// Its params.
    public var params: CallParams
    /// The arguments, field by field.
    public init(flow: String, params: CallParams) { self.flow = flow; self.params = params }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("flow", \.flow), ("params", \.params))
}

/// The arguments of `Finish`: `(s output, a{sv} params)`.
public struct FinishArguments: MethodArguments {
    /// One of the flow's declared outputs.
    public var output: String
    /// The output's params.
    public var params: CallParams
    /// The arguments, field by field.
    public init(output: String, params: CallParams) { self.output = output; self.params = params }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("output", \.output), ("params", \.params))
}

/// The arguments of `SetFacts`: `(a{sv} facts)`.
public struct FactsArguments: MethodArguments {
    /// The facts to set.
    public var facts: CallParams
    /// The arguments, field by field.
    public init(facts: CallParams) { self.facts = facts }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("facts", \.facts))
}

/// The arguments of `GetEvents` and `GetEventParams`: `(s source)`.
public struct SourceArguments: MethodArguments {
    /// The screen asked about (`""`: the top).
    public var source: String
    /// The arguments, field by field.
    public init(source: String) { self.source = source }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("source", \.source))
}

/// The arguments of `Resolve`: `(s kind, s target, a{sv} params)`.
public struct ResolveArguments: MethodArguments {
    /// `event` or `link`.
    public var kind: String
    /// The event, or what Open accepts.
    public var target: String
    /// The event's params.
    public var params: CallParams
    /// The arguments, field by field.
    public init(kind: String, target: String, params: CallParams) { self.kind = kind; self.target = target; self.params = params }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("kind", \.kind), ("target", \.target), ("params", \.params))
}

/// The arguments of `GetTreeAt`: `(t revision)`.
public struct RevisionArguments: MethodArguments {
    /// A kept revision (0: the current one).
    public var revision: UInt64
    /// The arguments, field by field.
    public init(revision: UInt64) { self.revision = revision }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("revision", \.revision))
}

/// The arguments of `Revert`: `(t revision, t expected_revision)`.
public struct RevertArguments: MethodArguments {
    /// The kept revision to go back to.
    public var revision: UInt64
    /// 0 skips the StaleRevision check.
    public var expectedRevision: UInt64
    /// The arguments, field by field.
    public init(revision: UInt64, expectedRevision: UInt64) { self.revision = revision; self.expectedRevision = expectedRevision }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("revision", \.revision), ("expected_revision", \.expectedRevision))
}

/// The arguments of `GetChanges`: `(t from_revision, u limit)`.
public struct ChangesArguments: MethodArguments {
    /// The first revision asked for.
    public var fromRevision: UInt64
    /// How many changes at most.
    public var limit: UInt32
    /// The arguments, field by field.
    public init(fromRevision: UInt64, limit: UInt32) { self.fromRevision = fromRevision; self.limit = limit }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("from_revision", \.fromRevision), ("limit", \.limit))
}

/// The arguments of `Export`: `(t from_revision, b redact)`.
public struct ExportArguments: MethodArguments {
    /// The first revision asked for (0: the oldest kept).
    public var fromRevision: UInt64
    /// Whether param values are replaced by placeholders.
    public var redact: Bool
    /// The arguments, field by field.
    public init(fromRevision: UInt64, redact: Bool) { self.fromRevision = fromRevision; self.redact = redact }
    /// The fields as the call carries them.
    public static let coding = ArgumentCoding(Self.init, ("from_revision", \.fromRevision), ("redact", \.redact))
}
