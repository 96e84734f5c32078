import DBus

/// The signatures of the contract's wire types, each written once.
public enum WireSignature {
    /// Params `a{sv}`.
    public static let params = Signature(unchecked: "a{sv}")
    /// One Entry `(sssa{sv})`.
    public static let entry = Signature(unchecked: "(sssa{sv})")
    /// A Path `a(sssa{sv})`.
    public static let path = Signature(unchecked: "a(sssa{sv})")
    /// One Node `(ssssa{sv})`.
    public static let node = Signature(unchecked: "(ssssa{sv})")
    /// A node list `a(ssssa{sv})`.
    public static let nodes = Signature(unchecked: "a(ssssa{sv})")
    /// One screen request, one Op, or one route: `(sa{sv})`.
    public static let namedDictionary = Signature(unchecked: "(sa{sv})")
    /// SetStack's screens `a(sa{sv})`.
    public static let screens = Signature(unchecked: "a(sa{sv})")
    /// Apply's ops `a(sa{sv})`.
    public static let operations = Signature(unchecked: "a(sa{sv})")
    /// GetRoutes' routes `a(sa{sv})`.
    public static let routes = Signature(unchecked: "a(sa{sv})")
    /// One history line `(tsx)`.
    public static let historyEntry = Signature(unchecked: "(tsx)")
    /// History's reply `a(tsx)`.
    public static let history = Signature(unchecked: "a(tsx)")
    /// One kept change `(tsxsa{sv})`: revision, cause, time, method, details.
    public static let change = Signature(unchecked: "(tsxsa{sv})")
    /// GetChanges' reply `a(tsxsa{sv})`.
    public static let changes = Signature(unchecked: "a(tsxsa{sv})")
    /// One flow instance `(sssa{sv})`: (flow_id, flow, first_screen_id, params).
    public static let flow = Signature(unchecked: "(sssa{sv})")
    /// GetFlows' reply `a(sssa{sv})`.
    public static let flows = Signature(unchecked: "a(sssa{sv})")
    /// One handled event `(ss)`: (event, scope).
    public static let event = Signature(unchecked: "(ss)")
    /// GetEvents' reply `a(ss)`.
    public static let events = Signature(unchecked: "a(ss)")
    /// One handled event with the params its handler reads `(ssa{ss})`: (event, scope, params name to type).
    public static let eventWithParams = Signature(unchecked: "(ssa{ss})")
    /// GetEventParams' reply `a(ssa{ss})`.
    public static let eventsWithParams = Signature(unchecked: "a(ssa{ss})")
    /// The `BackTarget` property `(sss)`: (id, route, presentation).
    public static let backTarget = Signature(unchecked: "(sss)")
    /// Resolve's trace `as`.
    public static let trace = Signature(unchecked: "as")
}

/// A contract value that travels as one struct and, in replies, as a list of them (`Entry` in a path, `Node`,
/// `HistoryEntry`, …): the list is written and read here once, for all of them.
public protocol WireStruct {
    /// The value's struct signature, its list's, and the names a refusal gives them.
    static var wire: WireShape { get }
    /// The value as its struct.
    var dbusValue: DBusValue { get }
    /// Reads the struct; throws `InvalidArgs` naming what does not fit.
    init(dbusValue: DBusValue) throws(DBusError)
}

/// How a `WireStruct` travels: one value's signature, its list's, and what a refusal calls the list and one item.
public struct WireShape: Sendable {
    /// One value's signature, such as `(sssa{sv})`.
    public let element: Signature
    /// The list's, such as `a(sssa{sv})`.
    public let list: Signature
    /// What a refusal calls the list (`a path`) and one of its items (`entry`).
    public let listName, itemName: String

    init(_ element: Signature, list: Signature, named listName: String, item itemName: String) {
        self.element = element
        self.list = list
        self.listName = listName
        self.itemName = itemName
    }
}

extension Array where Element: WireStruct {
    /// The list `a(…)` of the values' structs.
    @inlinable public var dbusValue: DBusValue {
        .array(element: Element.wire.element, map(\.dbusValue))
    }

    /// Reads a list `a(…)`; throws `InvalidArgs` naming the list when the value is not one, or the first item
    /// that does not fit and why.
    public init(dbusValue: DBusValue) throws(DBusError) {
        let wire = Element.wire
        self = try decodeArray(dbusValue, "\(wire.listName) \(wire.list)", item: wire.itemName, Element.init(dbusValue:))
    }
}

/// A value that does not have the contract's shape: the error names the value and what was expected.
func malformed(_ what: String, _ value: DBusValue) -> DBusError {
    .invalidArgs("expected \(what), got a value of type '\(value.signature)'")
}

/// The elements of an array `value`, each read by `element`; throws `InvalidArgs` naming `what`
/// when `value` is not an array, or the first element that does not fit (`item` and its index).
func decodeArray<T>(
    _ value: DBusValue, _ what: String, item: String, _ element: (DBusValue) throws(DBusError) -> T
) throws(DBusError) -> [T] {
    guard case .array(_, let items) = value else { throw malformed(what, value) }
    var decoded: [T] = []
    decoded.reserveCapacity(items.count)
    for (index, value) in items.enumerated() {
        do {
            decoded.append(try element(value))
        } catch {
            throw .invalidArgs("\(item) \(index): \(error.message)")
        }
    }
    return decoded
}
