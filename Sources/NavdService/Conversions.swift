import DBus
import Navigation

/// Converts between D-Bus values and the navigation model's values. The model knows nothing of D-Bus;
/// this file is the only translation between the two.
enum Conversions {
    // MARK: D-Bus → model

    /// A caller's value as the model sees it: integer kinds folded, variants in `a{sv}` unwrapped once.
    static func input(_ value: DBusValue) -> InputValue {
        switch value {
        case .byte(let v): return .int(Int64(v))
        case .int16(let v): return .int(Int64(v))
        case .uint16(let v): return .int(Int64(v))
        case .int32(let v): return .int(Int64(v))
        case .uint32(let v): return .int(Int64(v))
        case .int64(let v): return .int(v)
        case .uint64(let v): return .uint(v)
        case .double(let v): return .double(v)
        case .boolean(let v): return .bool(v)
        case .string(let v): return .string(v)
        case .objectPath: return .other("o")
        case .signature: return .other("g")
        case .array(_, let items): return .list(items.map(input))
        case .structure(let fields): return .record(fields.map(input))
        case .variant(let inner): return .variant(input(inner))
        case .dictionary(let key, _, let entries):
            guard key.rawValue == "s" else { return .other(value.signature.rawValue) }
            return .map(stringKeyed(entries))
        }
    }

    /// `a{s?}` as a map; a value that is a variant is unwrapped once, so only a variant inside a
    /// variant stays `.variant` (which params refuse).
    static func stringKeyed(_ entries: [DBusDictEntry]) -> [String: InputValue] {
        var map: [String: InputValue] = [:]
        map.reserveCapacity(entries.count)
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            if case .variant(let inner) = entry.value {
                map[key] = input(inner)
            } else {
                map[key] = input(entry.value)
            }
        }
        return map
    }

    /// The `a{sv}` params argument of Push, Replace and Present.
    static func params(_ value: DBusValue) -> InputParams {
        if case .dictionary(_, _, let entries) = value { return stringKeyed(entries) }
        return [:]
    }

    /// SetStack's `a(sa{sv})`.
    static func screens(_ value: DBusValue) -> [ScreenRequest] {
        guard case .array(_, let items) = value else { return [] }
        return items.compactMap { item in
            guard case .structure(let fields) = item, fields.count == 2, case .string(let route) = fields[0] else { return nil }
            return ScreenRequest(route: route, params: params(fields[1]))
        }
    }

    /// Apply's `a(sa{sv})`.
    static func rawOperations(_ value: DBusValue) -> [RawOperation] {
        guard case .array(_, let items) = value else { return [] }
        return items.compactMap { item in
            guard case .structure(let fields) = item, fields.count == 2, case .string(let name) = fields[0],
                  case .dictionary(_, _, let entries) = fields[1] else { return nil }
            return RawOperation(name: name, arguments: stringKeyed(entries))
        }
    }

    // MARK: model → D-Bus

    /// A checked param as it is sent back: `s`, `x`, `d` or `b`.
    static func dbus(_ value: ParamValue) -> DBusValue {
        switch value {
        case .string(let v): return .string(v)
        case .int(let v): return .int64(v)
        case .double(let v): return .double(v)
        case .bool(let v): return .boolean(v)
        }
    }

    /// Params as `a{sv}`, keys sorted so the same params always marshal the same way.
    static func dbus(_ params: [String: ParamValue]) -> DBusValue {
        let entries = params.keys.sorted().map { key in
            DBusDictEntry(key: .string(key), value: .variant(dbus(params[key]!)))
        }
        return .dictionary(key: stringSignature, value: variantSignature, entries)
    }

    /// One Entry `(sssa{sv})`.
    static func dbus(_ entry: Entry) -> DBusValue {
        .structure([.string(entry.id), .string(entry.route), .string(entry.presentation.rawValue), dbus(entry.params)])
    }

    /// A path `a(sssa{sv})`.
    static func dbus(path: [Entry]) -> DBusValue {
        .array(element: entrySignature, path.map(dbus))
    }

    /// A node list `a(ssssa{sv})`.
    static func dbus(nodes: [Node]) -> DBusValue {
        .array(element: nodeSignature, nodes.map { node in
            .structure([.string(node.id), .string(node.parentId), .string(node.kind), .string(node.name), dbus(node.params)])
        })
    }

    /// History `a(tsx)`.
    static func dbus(history: [HistoryEntry]) -> DBusValue {
        .array(element: historySignature, history.map { .structure([.uint64($0.revision), .string($0.cause), .int64($0.time)]) })
    }

    /// A list of strings `as`.
    static func dbus(strings: [String]) -> DBusValue {
        .array(element: stringSignature, strings.map { .string($0) })
    }

    /// A string map `a{ss}`, keys sorted.
    static func dbus(stringMap: [String: String]) -> DBusValue {
        .dictionary(key: stringSignature, value: stringSignature, stringMap.keys.sorted().map {
            DBusDictEntry(key: .string($0), value: .string(stringMap[$0]!))
        })
    }

    static let stringSignature = Signature(unchecked: "s")
    static let variantSignature = Signature(unchecked: "v")
    static let entrySignature = Signature(unchecked: "(sssa{sv})")
    static let nodeSignature = Signature(unchecked: "(ssssa{sv})")
    static let historySignature = Signature(unchecked: "(tsx)")
    static let routeSignature = Signature(unchecked: "(sa{sv})")
}
