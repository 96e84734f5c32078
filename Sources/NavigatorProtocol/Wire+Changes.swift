import DBus
import Navigation

/// The keys of a kept change's details (docs/dbus-api.md, GetChanges), in the order `navctl history` lists them.
public enum ChangeDetail: String, Hashable, Sendable, CaseIterable {
    /// `args` (av): the call's arguments; `sender` (s), `uid` and `pid` (u): the caller as the bus described it;
    /// `command` (s): the caller's process name.
    case args, sender, uid, pid, command
    /// Send's `event`, `source` and `outcome` (s); a reconcile's `reason` (s: `start` or `reload`).
    case event, source, outcome, reason
    /// `tab` and `top` (s): the selected tab and the route on top after the change.
    case tab, top
}

/// One kept change as `GetChanges` answers it: `(tsxsa{sv})` (docs/dbus-api.md, GetChanges).
public struct RecordedChange: Hashable, Sendable, WireStruct {
    /// The revision the change made.
    public var revision: UInt64
    /// The lower-case cause, as History gives it.
    public var cause: String
    /// Microseconds since the epoch.
    public var time: Int64
    /// The D-Bus method that made the change; "" for a reconcile.
    public var method: String
    /// The details by key (`args`, `sender`, `uid`, `pid`, `command`, `event`, `source`, `outcome`, `reason`,
    /// `tab`, `top`), each the value inside its variant.
    public var details: [String: DBusValue]

    /// A kept change `(tsxsa{sv})`; GetChanges answers a list `a(tsxsa{sv})`.
    public static let wire = WireShape(WireSignature.change, list: WireSignature.changes, named: "changes", item: "change")

    /// A change with the given parts.
    public init(revision: UInt64, cause: String, time: Int64, method: String, details: [String: DBusValue]) {
        self.revision = revision
        self.cause = cause
        self.time = time
        self.method = method
        self.details = details
    }

    /// Detail `key` when it is a string.
    public func string(_ key: ChangeDetail) -> String? { details[key.rawValue]?.stringValue }
    /// Detail `key` when it is an unsigned 32-bit number (`uid`, `pid`).
    public func uint32(_ key: ChangeDetail) -> UInt32? {
        if case .uint32(let value)? = details[key.rawValue] { return value }
        return nil
    }
    /// The call's arguments, each as it was received (empty for a reconcile).
    public var arguments: [DBusValue] {
        guard case .array(_, let items)? = details[ChangeDetail.args.rawValue] else { return [] }
        return items.map { $0.variantValue ?? $0 }
    }

    /// The change `(tsxsa{sv})`.
    public var dbusValue: DBusValue {
        .structure([
            .uint64(revision), .string(cause), .int64(time), .string(method),
            .dictionary(key: "s", value: "v", details.sorted { $0.key < $1.key }.map {
                DBusDictEntry(key: .string($0.key), value: .variant($0.value))
            }),
        ])
    }

    /// Reads a change `(tsxsa{sv})`.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 5, case .uint64(let revision) = fields[0],
              case .string(let cause) = fields[1], case .int64(let time) = fields[2], case .string(let method) = fields[3],
              case .dictionary(_, _, let entries) = fields[4]
        else { throw malformed("a change \(WireSignature.change)", dbusValue) }
        var details: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue, let value = entry.value.variantValue else { continue }
            details[key] = value
        }
        self.init(revision: revision, cause: cause, time: time, method: method, details: details)
    }
}
