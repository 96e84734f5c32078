import DBus
import Navigation

/// One route of the graph as `GetRoutes` describes it: `(sa{sv})`.
public struct RouteInfo: Hashable, Sendable {
    /// The route's name.
    public var name: String
    /// Its human title, when it declares one.
    public var title: String?
    /// Declared params: name to type name (`string`, `int`, `bool`, `double`).
    public var params: [String: String]
    /// The names of the required params, sorted.
    public var required: [String]
    /// How it may be shown: `push`, `sheet`, `cover`, sorted.
    public var presentations: [String]
    /// Its deep-link pattern, such as `/news/{id}`, when it declares one.
    public var link: String?
    /// Every other key (display hints such as `color` and `index`).
    public var hints: [String: ParamValue]

    /// Makes a route description.
    public init(name: String, title: String? = nil, params: [String: String] = [:], required: [String] = [],
                presentations: [String] = [], link: String? = nil, hints: [String: ParamValue] = [:]) {
        self.name = name
        self.title = title
        self.params = params
        self.required = required
        self.presentations = presentations
        self.link = link
        self.hints = hints
    }

    /// The description of `route` as navd serves it.
    public init(_ route: RouteSpec) {
        var hints: [String: ParamValue] = [:]
        for (key, hint) in route.hints {
            switch hint {
            case .string(let text): hints[key] = .string(text)
            case .int(let number): hints[key] = .int(number)
            }
        }
        self.init(
            name: route.name, title: route.title, params: route.params.mapValues(\.rawValue),
            required: route.required.sorted(), presentations: route.presentations.map(\.rawValue).sorted(),
            link: route.link, hints: hints)
    }

    /// The `color` display hint, when the route has one.
    public var color: String? {
        if case .string(let value)? = hints["color"] { return value }
        return nil
    }

    /// The route as `(sa{sv})`: title, params, required, presentations, link, then hints by key.
    public var dbusValue: DBusValue {
        var fields: [(String, DBusValue)] = []
        if let title { fields.append(("title", .string(title))) }
        fields.append(("params", .stringDictionary(params.keys.sorted().map { ($0, params[$0]!) })))
        fields.append(("required", .stringArray(required)))
        fields.append(("presentations", .stringArray(presentations)))
        if let link { fields.append(("link", .string(link))) }
        for key in hints.keys.sorted() { fields.append((key, hints[key]!.dbusValue)) }
        return .structure([.string(name), .vardict(fields)])
    }

    /// Reads a route `(sa{sv})`; throws `InvalidArgs` naming a key whose value has the wrong type.
    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = value, fields.count == 2, case .string(let name) = fields[0],
              case .dictionary(_, _, let entries) = fields[1]
        else { throw malformed("a route \(WireSignature.namedDictionary)", value) }
        self.init(name: name)
        for entry in entries {
            guard case .string(let key) = entry.key else { throw malformed("a string key", entry.key) }
            let field = entry.value.variantValue ?? entry.value
            func wrong(_ expected: String) -> DBusError {
                .invalidArgs("route '\(name)': '\(key)' must be \(expected), not '\(field.signature)'")
            }
            switch key {
            case "title":
                guard case .string(let text) = field else { throw wrong("s") }
                title = text
            case "params":
                guard let pairs = field.stringPairs else { throw wrong("a{ss}") }
                params = Dictionary(pairs, uniquingKeysWith: { _, last in last })
            case "required":
                guard let names = field.strings else { throw wrong("as") }
                required = names
            case "presentations":
                guard let names = field.strings else { throw wrong("as") }
                presentations = names
            case "link":
                guard case .string(let text) = field else { throw wrong("s") }
                link = text
            default:
                hints[key] = try ParamValue(dbusValue: field)
            }
        }
    }

    /// GetRoutes' reply `a(sa{sv})`.
    public static func dbusValue(routes: [RouteInfo]) -> DBusValue {
        .array(element: WireSignature.namedDictionary, routes.map(\.dbusValue))
    }

    /// Reads GetRoutes' reply `a(sa{sv})`.
    public static func routes(dbusValue value: DBusValue) throws(DBusError) -> [RouteInfo] {
        try decodeArray(value, "routes \(WireSignature.routes)", item: "route", RouteInfo.init(dbusValue:))
    }
}

extension DBusValue {
    /// The texts of an `as`; nil for any other value.
    public var strings: [String]? {
        guard case .array(_, let items) = self else { return nil }
        var texts: [String] = []
        for item in items {
            guard case .string(let text) = item else { return nil }
            texts.append(text)
        }
        return texts
    }

    /// The pairs of an `a{ss}` in order; nil for any other value.
    public var stringPairs: [(String, String)]? {
        guard case .dictionary(_, _, let entries) = self else { return nil }
        var pairs: [(String, String)] = []
        for entry in entries {
            guard case .string(let key) = entry.key, case .string(let text) = entry.value else { return nil }
            pairs.append((key, text))
        }
        return pairs
    }
}
