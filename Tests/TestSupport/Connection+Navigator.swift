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
    /// `GetState` of the navigator at `path` (the default navigator unless given), decoded strictly:
    /// a reply of any other wire type than the contract's `(t, s, a(sssa{sv}))` throws, naming the types it has.
    public func navigatorState(at path: String = Navigator.objectPath.rawValue) throws -> (revision: UInt64, tab: String, path: [PathEntry]) {
        let out = try navigator("GetState", at: path)
        try Self.requireTypes(out, ["t", "s", WireSignature.path.rawValue], "GetState at \(path)")
        return (out[0].uint64Value!, out[1].stringValue!, try Self.path(out[2]))
    }

    /// The routes of the current path of the navigator at `path`, bottom first.
    public func navigatorRoutes(at path: String = Navigator.objectPath.rawValue) throws -> [String] {
        try navigatorState(at: path).path.map(\.route)
    }

    /// Decodes an `a(sssa{sv})` path (each param unwrapped from its variant); a value of another
    /// wire type throws, naming it.
    public static func path(_ value: DBusValue) throws -> [PathEntry] {
        try requireTypes([value], [WireSignature.path.rawValue], "a path")
        return value.arrayValues!.map { entry in
            let fields = entry.structFields!
            var params: [String: DBusValue] = [:]
            for (key, value) in fields[3].stringKeyedPairs! { params[key] = value }  // unwrapped from its variant already
            return PathEntry(
                id: fields[0].stringValue!, route: fields[1].stringValue!, presentation: fields[2].stringValue!, params: params)
        }
    }

    /// Throws unless `values` have exactly the wire types `signatures`, naming `what` and the types they have.
    public static func requireTypes(_ values: [DBusValue], _ signatures: [String], _ what: String) throws {
        let actual = values.map(\.signature.rawValue)
        guard actual == signatures else {
            throw HarnessError("\(what) answered values of the types (\(actual.joined(separator: ", "))), not (\(signatures.joined(separator: ", ")))")
        }
    }

    /// Adds match rules for navd's `StackChanged` and its `PropertiesChanged`.
    public func subscribeToNavigator() throws {
        try addMatch(Navigator.stackChangedRule)
        try addMatch(Navigator.propertiesChangedRule)
    }
}
