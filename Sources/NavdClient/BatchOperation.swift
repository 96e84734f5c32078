import DBus

/// One operation of an `Apply` batch: the contract's Op `(sa{sv})`.
///
/// Only the arguments that are set are sent; the daemon says `InvalidOperation` when one is missing.
public struct BatchOperation: Hashable, Sendable {
    /// The method name in lower case: `push`, `pop`, `popto`, `poptoroot`, `replace`, `setstack`,
    /// `present`, `dismiss`, `dismissall`, `back`, `selecttab`, `open`.
    public var operation: String
    /// `route` argument (push, replace, present).
    public var route: String?
    /// `params` argument; nil leaves it out, which the daemon reads as `{}`.
    public var params: Params?
    /// `target` argument (popto, open).
    public var target: String?
    /// `style` argument (present): `sheet` or `cover`.
    public var style: String?
    /// `tab` argument (selecttab).
    public var tab: String?
    /// `screens` argument (setstack).
    public var screens: [ScreenSpec]?

    /// Makes an operation; set only the arguments the method takes.
    public init(_ operation: String, route: String? = nil, params: Params? = nil, target: String? = nil,
                style: String? = nil, tab: String? = nil, screens: [ScreenSpec]? = nil) {
        self.operation = operation
        self.route = route
        self.params = params
        self.target = target
        self.style = style
        self.tab = tab
        self.screens = screens
    }

    /// The op as `(sa{sv})`.
    public var dbusValue: DBusValue {
        var arguments: [(String, DBusValue)] = []
        if let route { arguments.append(("route", .string(route))) }
        if let params { arguments.append(("params", params.dbusValue)) }
        if let target { arguments.append(("target", .string(target))) }
        if let style { arguments.append(("style", .string(style))) }
        if let tab { arguments.append(("tab", .string(tab))) }
        if let screens { arguments.append(("screens", ScreenSpec.dbusArray(screens))) }
        return RawOperation.dbusValue(name: operation, arguments: arguments)
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
