import DBus
import Navigation
import NavigatorProtocol

/// Where calls go: a bus name serving the navd interface at navd's object path.
struct CallTarget {
    /// The bus name (navd's, or the floor's `org.navd.Floor1`).
    let busName: String

    /// navd itself.
    static let navd = CallTarget(busName: Navigator.busName)
    /// The C floor service, on the same bus under another name.
    static let floor = CallTarget(busName: "org.navd.Floor1")
    /// The durable floor: the C floor committing one SQLite row per change before it replies, on the same bus.
    static let durableFloor = CallTarget(busName: "org.navd.DurableFloor1")
    /// The dbus-python peer (scripts/navd-pypeer.py), on the same bus under another name.
    static let python = CallTarget(busName: "org.navd.Python1")
}

/// Which call a measurement repeats.
enum CallKind: Equatable {
    /// `org.freedesktop.DBus.Peer.Ping`: the cheapest call the bus can carry.
    case ping
    /// `Push("orange", {})` on even indices, `Pop()` on odd ones: the stack never grows.
    case pushPop
    /// `Send("", event, {}, 0)` on even indices, `Pop()` on odd ones: for an event that pushes
    /// (the demo's `next` on `red` pushes `orange`), the like of `pushPop`.
    case sendPop(event: String)
    /// `Resolve("event", event, {})`: the dry run of that Send, which changes nothing.
    case resolve(event: String)
    /// `Reload()`: reads the route file(s) again (of an app, on an app's object).
    case reload

    /// The `index`-th call of the sequence, for `target`.
    func message(_ index: Int, to target: CallTarget) throws(DBusError) -> Message {
        switch self {
        case .ping:
            return try Message.methodCall(
                destination: target.busName, path: Navigator.objectPath.rawValue,
                interface: StandardInterfaces.peer.name, member: "Ping")
        case .pushPop:
            return index % 2 == 0 ? try NavigatorCalls.push("orange", to: target) : try NavigatorCalls.pop(target)
        case .sendPop(let event):
            return index % 2 == 0 ? try NavigatorCalls.send(event, to: target) : try NavigatorCalls.pop(target)
        case .resolve(let event):
            return try NavigatorCalls.call(target, .resolve, [.string("event"), .string(event), .vardict([])])
        case .reload:
            return try NavigatorCalls.call(target, .reload)
        }
    }
}

/// Builders of the navd calls the benchmark makes.
enum NavigatorCalls {
    static func call(_ target: CallTarget, _ method: NavigatorMethod, _ values: [DBusValue] = []) throws(DBusError) -> Message {
        try Navigator.call(method, values, destination: target.busName)
    }

    /// `Push(route, {})`.
    static func push(_ route: String, to target: CallTarget) throws(DBusError) -> Message {
        try call(target, .push, [.string(route), .vardict([])])
    }

    /// `Send("", event, {}, 0)`: the event from the screen on top, no revision check.
    static func send(_ event: String, to target: CallTarget) throws(DBusError) -> Message {
        try call(target, .send, [.string(""), .string(event), .vardict([]), .uint64(0)])
    }

    /// `Pop()`.
    static func pop(_ target: CallTarget) throws(DBusError) -> Message {
        try call(target, .pop)
    }

    /// `GetState()`.
    static func getState(_ target: CallTarget) throws(DBusError) -> Message {
        try call(target, .getState)
    }

    /// `SelectTab(tab)`.
    static func selectTab(_ tab: String, on target: CallTarget) throws(DBusError) -> Message {
        try call(target, .selectTab, [.string(tab)])
    }

    /// `SetStack(screens)` with empty params.
    static func setStack(_ routes: [String], on target: CallTarget) throws(DBusError) -> Message {
        let screens = routes.map { ScreenRequest.dbusValue(route: $0, params: [:]) }
        return try call(target, .setStack, [.array(element: WireSignature.namedDictionary, screens)])
    }
}

/// Waits until `target` answers (`GetState` for navd, `Ping` for the floor), at most `seconds`.
func waitUntilAnswering(_ connection: Connection, _ target: CallTarget, kind: CallKind, seconds: Double) -> Bool {
    let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
    while MonotonicClock.nanoseconds() < deadline {
        do {
            let message = kind == .ping
                ? try CallKind.ping.message(0, to: target) : try NavigatorCalls.getState(target)
            _ = try connection.call(message, timeoutMilliseconds: 2000)
            return true
        } catch let error {
            // Any answer from the name's owner means it is serving; no owner yet means wait.
            let notThereYet = [DBusErrorName.serviceUnknown, DBusErrorName.nameHasNoOwner, DBusErrorName.noReply]
            if !notThereYet.contains(error.name) { return true }
            sleepMilliseconds(10)
        }
    }
    return false
}
