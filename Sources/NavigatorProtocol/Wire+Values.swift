import DBus
import Navigation

extension ParamValue {
    /// The value as the contract sends it inside a variant: `s`, `x`, `d` or `b`.
    public var dbusValue: DBusValue {
        switch self {
        case .string(let value): .string(value)
        case .int(let value): .int64(value)
        case .double(let value): .double(value)
        case .bool(let value): .boolean(value)
        }
    }

    /// Reads a param as navd sends it back; integers of every width become `.int` (an unsigned
    /// one above `Int64.max` is clamped), a variant is unwrapped. Throws `InvalidArgs` naming
    /// the type of any other value.
    public init(dbusValue: DBusValue) throws(DBusError) {
        switch dbusValue {
        case .string(let value): self = .string(value)
        case .boolean(let value): self = .bool(value)
        case .double(let value): self = .double(value)
        case .uint64(let value): self = .int(Int64(clamping: value))
        case .variant(let inner): try self.init(dbusValue: inner)
        default:
            // Every other integer type fits in Int64 (DBusValue.int64Value widens it).
            guard let value = dbusValue.int64Value else { throw malformed("a param (s, an integer, d or b)", dbusValue) }
            self = .int(value)
        }
    }
}

extension Dictionary where Key == String, Value == ParamValue {
    /// The params as `a{sv}`, keys sorted so the same params always marshal the same way.
    public var dbusValue: DBusValue {
        .dictionary(key: .string, value: .variant, keys.sorted().map { key in
            DBusDictEntry(key: .string(key), value: .variant(self[key]!.dbusValue))
        })
    }

    /// Reads params `a{sv}`; throws `InvalidArgs` naming the key whose value is not a param.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .dictionary(_, _, let entries) = dbusValue else { throw malformed("params a{sv}", dbusValue) }
        self.init(minimumCapacity: entries.count)
        for entry in entries {
            guard case .string(let key) = entry.key else { throw malformed("a string key", entry.key) }
            do {
                self[key] = try ParamValue(dbusValue: entry.value)
            } catch {
                throw .invalidArgs("param '\(key)': \(error.message)")
            }
        }
    }
}

extension Entry: WireStruct {
    /// An Entry `(sssa{sv})`; a path is a list `a(sssa{sv})`.
    public static let wire = WireShape(WireSignature.entry, list: WireSignature.path, named: "a path", item: "entry")

    /// The Entry `(sssa{sv})`.
    public var dbusValue: DBusValue {
        .structure([.string(id), .string(route), .string(presentation.rawValue), params.dbusValue])
    }

    /// Reads an Entry `(sssa{sv})`; throws `InvalidArgs` naming what does not fit.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 4,
              case .string(let id) = fields[0], case .string(let route) = fields[1],
              case .string(let presentationName) = fields[2]
        else { throw malformed("an Entry \(WireSignature.entry)", dbusValue) }
        guard let presentation = Presentation(rawValue: presentationName) else {
            throw .invalidArgs("entry '\(id)' has presentation '\(presentationName)', not root, push, sheet or cover")
        }
        self.init(id: id, route: route, presentation: presentation, params: try [String: ParamValue](dbusValue: fields[3]))
    }
}

extension Node: WireStruct {
    /// A Node `(ssssa{sv})`; GetTree and GetState-at-revision answer a list `a(ssssa{sv})`.
    public static let wire = WireShape(WireSignature.node, list: WireSignature.nodes, named: "nodes", item: "node")

    /// The Node `(ssssa{sv})`.
    public var dbusValue: DBusValue {
        .structure([.string(id), .string(parentID), .string(kind.rawValue), .string(name), params.dbusValue])
    }

    /// Reads a Node `(ssssa{sv})`; throws `InvalidArgs` naming what does not fit.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 5,
              case .string(let id) = fields[0], case .string(let parent) = fields[1],
              case .string(let kindName) = fields[2], case .string(let name) = fields[3]
        else { throw malformed("a Node \(WireSignature.node)", dbusValue) }
        guard let kind = NodeKind(rawValue: kindName) else {
            throw .invalidArgs("node '\(id)' has kind '\(kindName)', not tab, root, push, sheet or cover")
        }
        self.init(id: id, parentID: parent, kind: kind, name: name, params: try [String: ParamValue](dbusValue: fields[4]))
    }
}

extension HistoryEntry: WireStruct {
    /// A history line `(tsx)`; History answers a list `a(tsx)`.
    public static let wire = WireShape(WireSignature.historyEntry, list: WireSignature.history, named: "history", item: "line")

    /// The history line `(tsx)`.
    public var dbusValue: DBusValue { .structure([.uint64(revision), .string(cause), .int64(time)]) }

    /// Reads a history line `(tsx)`.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 3, case .uint64(let revision) = fields[0],
              case .string(let cause) = fields[1], case .int64(let time) = fields[2]
        else { throw malformed("a history line \(WireSignature.historyEntry)", dbusValue) }
        self.init(revision: revision, cause: cause, time: time)
    }
}

extension BackTarget {
    /// The `BackTarget` property `(sss)` of `target`; `("", "", "")` for none (Back would answer AtRoot).
    public static func dbusValue(_ target: BackTarget?) -> DBusValue {
        .structure([.string(target?.id ?? ""), .string(target?.route ?? ""), .string(target?.presentation.rawValue ?? "")])
    }

    /// Reads the `BackTarget` property `(sss)`: nil for `("", "", "")`; throws `InvalidArgs` naming what does not fit.
    public static func read(dbusValue: DBusValue) throws(DBusError) -> BackTarget? {
        guard case .structure(let fields) = dbusValue, fields.count == 3,
              case .string(let id) = fields[0], case .string(let route) = fields[1], case .string(let name) = fields[2]
        else { throw malformed("a back target \(WireSignature.backTarget)", dbusValue) }
        if id.isEmpty && route.isEmpty && name.isEmpty { return nil }
        guard let presentation = Presentation(rawValue: name) else {
            throw .invalidArgs("back target '\(id)' has presentation '\(name)', not root, push, sheet or cover")
        }
        return BackTarget(id: id, route: route, presentation: presentation)
    }
}

// MARK: Written straight into a signal's body

extension ParamValue {
    /// The param as a variant (`s`, `x`, `d` or `b`), as `dbusValue` marshals inside one.
    public func writeVariant(into body: inout BodyWriter) {
        switch self {
        case .string(let value): body.variant(string: value)
        case .int(let value): body.variant(int64: value)
        case .double(let value): body.variant(double: value)
        case .bool(let value): body.variant(boolean: value)
        }
    }
}

extension Dictionary where Key == String, Value == ParamValue {
    /// The params as `a{sv}`, keys sorted: the bytes `dbusValue` marshals to.
    public func write(into body: inout BodyWriter) {
        body.array(elementAlignment: 8) { body in
            if isEmpty { return }
            for key in keys.sorted() {
                body.entry(key) { self[key]!.writeVariant(into: &$0) }
            }
        }
    }
}

extension Entry {
    /// A path `a(sssa{sv})`: the bytes `[Entry].dbusValue` marshals to, with no value built.
    public static func write(path: [Entry], into body: inout BodyWriter) {
        body.array(elementAlignment: 8) { body in
            for entry in path {
                body.structure()
                body.string(entry.id)
                body.string(entry.route)
                body.string(entry.presentation.rawValue)
                entry.params.write(into: &body)
            }
        }
    }
}

extension BackTarget {
    /// The `BackTarget` property `(sss)` of `target`: the bytes `dbusValue(_:)` marshals to, with no value built.
    public static func write(_ target: BackTarget?, into body: inout BodyWriter) {
        body.structure()
        body.string(target?.id ?? "")
        body.string(target?.route ?? "")
        body.string(target?.presentation.rawValue ?? "")
    }
}
