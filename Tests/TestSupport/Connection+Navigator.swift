import DBus
import NavigatorProtocol

/// One screen of a path as tests compare it: (id, route, presentation, params).
public struct PathEntry: Hashable, Sendable, CustomStringConvertible {
    /// The screen's id.
    public var id: String
    /// Its route.
    public var route: String
    /// `root`, `push`, `sheet` or `cover`.
    public var presentation: String
    /// Its params, unwrapped from their variants.
    public var params: [String: DBusValue]
    /// `route(presentation)`, for failure messages.
    public var description: String { "\(route)(\(presentation))" }
}

extension Connection {
    /// `GetState` decoded: revision, tab and path.
    public func navigatorState() throws -> (revision: UInt64, tab: String, path: [PathEntry]) {
        let out = try navigator("GetState")
        return (out[0].uint64Value ?? 0, out[1].stringValue ?? "", Self.path(out[2]))
    }

    /// The routes of the current path, bottom first.
    public func navigatorRoutes() throws -> [String] {
        try navigatorState().path.map(\.route)
    }

    /// Decodes an `a(sssa{sv})` path.
    public static func path(_ value: DBusValue) -> [PathEntry] {
        (value.arrayValues ?? []).map { entry in
            let fields = entry.structFields ?? []
            var params: [String: DBusValue] = [:]
            for pair in fields.count > 3 ? (fields[3].stringKeyedPairs ?? []) : [] {
                params[pair.0] = pair.1.variantValue ?? pair.1
            }
            return PathEntry(
                id: fields.first?.stringValue ?? "", route: fields.count > 1 ? fields[1].stringValue ?? "" : "",
                presentation: fields.count > 2 ? fields[2].stringValue ?? "" : "", params: params)
        }
    }

    /// Adds match rules for navd's `StackChanged` and its `PropertiesChanged`.
    public func subscribeToNavigator() throws {
        try addMatch(Navigator.stackChangedRule)
        try addMatch(Navigator.propertiesChangedRule)
    }
}
