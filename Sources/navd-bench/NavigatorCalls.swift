import DBus

/// Where calls go: a bus name serving the navd interface at navd's object path.
struct CallTarget {
    /// The bus name (`org.navd.Navigator1`, or the floor's `org.navd.Floor1`).
    let busName: String

    /// navd itself.
    static let navd = CallTarget(busName: "org.navd.Navigator1")
    /// The C floor service, on the same bus under another name.
    static let floor = CallTarget(busName: "org.navd.Floor1")
    /// The dbus-python peer (scripts/navd-pypeer.py), on the same bus under another name.
    static let python = CallTarget(busName: "org.navd.Python1")

    static let objectPath = "/org/navd/Navigator1"
    static let interface = "org.navd.Navigator1"
}

/// Which call a measurement repeats.
enum CallKind {
    /// `org.freedesktop.DBus.Peer.Ping`: the cheapest call the bus can carry.
    case ping
    /// `Push("orange", {})` on even indices, `Pop()` on odd ones: the stack never grows.
    case pushPop

    /// The `index`-th call of the sequence, for `target`.
    func message(_ index: Int, to target: CallTarget) throws(DBusError) -> Message {
        switch self {
        case .ping:
            return try Message.methodCall(
                destination: target.busName, path: CallTarget.objectPath,
                interface: "org.freedesktop.DBus.Peer", member: "Ping")
        case .pushPop:
            return index % 2 == 0 ? try NavigatorCalls.push("orange", to: target) : try NavigatorCalls.pop(target)
        }
    }
}

/// Builders of the navd calls the benchmark makes.
enum NavigatorCalls {
    static func call(_ target: CallTarget, _ member: String, _ values: [DBusValue] = []) throws(DBusError) -> Message {
        let message = try Message.methodCall(
            destination: target.busName, path: CallTarget.objectPath, interface: CallTarget.interface, member: member)
        if !values.isEmpty { try message.append(values) }
        return message
    }

    /// `Push(route, {})`.
    static func push(_ route: String, to target: CallTarget) throws(DBusError) -> Message {
        try call(target, "Push", [.string(route), .vardict([])])
    }

    /// `Pop()`.
    static func pop(_ target: CallTarget) throws(DBusError) -> Message {
        try call(target, "Pop")
    }

    /// `GetState()`.
    static func getState(_ target: CallTarget) throws(DBusError) -> Message {
        try call(target, "GetState")
    }

    /// `SelectTab(tab)`.
    static func selectTab(_ tab: String, on target: CallTarget) throws(DBusError) -> Message {
        try call(target, "SelectTab", [.string(tab)])
    }

    /// `SetStack(screens)` with empty params.
    static func setStack(_ routes: [String], on target: CallTarget) throws(DBusError) -> Message {
        let screens = routes.map { DBusValue.structure([.string($0), .vardict([])]) }
        return try call(target, "SetStack", [.array(element: Signature(unchecked: "(sa{sv})"), screens)])
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
