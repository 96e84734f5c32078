import DBus
import RouteFiles

#if canImport(Glibc)
import Glibc
#endif

/// Who a bus connection is, as the bus says (`GetConnectionCredentials`), never as its messages say.
public struct CallerIdentity: Hashable, Sendable {
    /// The connection's unique name, such as `:1.42`.
    public var sender: String
    /// The bus's `UnixUserID`; nil when the bus gives none.
    public var uid: UInt32?
    /// The bus's `ProcessID`; nil when the bus gives none.
    public var pid: UInt32?
    /// The bus's `UnixGroupIDs`, else the groups the user database gives the user.
    public var groups: [UInt32]
    /// The process's name (`/proc/PID/comm`) when it was read; nil otherwise.
    public var command: String?
    /// The user's name in the user database, when it has one.
    public var userName: String?

    /// An identity with the given parts.
    public init(sender: String, uid: UInt32?, pid: UInt32?, groups: [UInt32], command: String?, userName: String?) {
        self.sender = sender
        self.uid = uid
        self.pid = pid
        self.groups = groups
        self.command = command
        self.userName = userName
    }

    /// "uid 1001 (bob)", or "uid 1001" when the user database has no name for it.
    public var describedUser: String {
        guard let uid else { return "a caller whose uid the bus does not give" }
        return "uid \(uid)" + (userName.map { " (\($0))" } ?? "")
    }
}

/// The sender of one call and what the registry knew of it when the call was read: a change's record is made
/// from it, without reading the sender or looking it up again.
struct Caller {
    let sender: String?
    /// Nil when the bus did not describe the sender.
    let identity: CallerIdentity?
}

/// What navd knows of each bus connection that called it: asked of the bus once per connection
/// (`GetConnectionCredentials`, sent without waiting, so other callers are served meanwhile),
/// the connection's calls parked until the answer, forgotten when the name leaves the bus
/// (`NameOwnerChanged`), and never more than `capacity` entries (the oldest known one goes first).
///
/// The daemon's one thread owns it: no lock. It sends through `connection` and is fed the bus's
/// answers and `NameOwnerChanged` signals by the loop.
final class CallerRegistry {
    /// What is known of one connection.
    enum Entry {
        /// The bus answered.
        case known(CallerIdentity)
        /// The bus refused to say (the reason, as the bus gave it).
        case refused(String)
        /// Asked; these calls wait for the answer, in arrival order.
        case asking(serial: UInt32, parked: [Message])
    }

    /// What `lookUp` found.
    enum Lookup {
        case known(CallerIdentity)
        case refused(String)
        /// The call is parked until the bus answers.
        case parked
    }

    /// The most connections remembered at once.
    let capacity: Int
    private let connection: Connection
    private var entries: [String: Entry] = [:]
    /// Unique names in the order they were first seen (may hold forgotten names; compacted).
    private var order: [String] = []
    private var orderStart = 0
    /// The sender each credentials call in flight is for, by its serial.
    private var asking: [UInt32: String] = [:]
    /// Whether the `NameOwnerChanged` match rule is in place.
    private var following = false

    init(connection: Connection, capacity: Int = 4096) {
        self.connection = connection
        self.capacity = capacity
    }

    /// How many connections are remembered (known, refused or being asked about).
    var count: Int { entries.count }
    /// How many names the first-seen order holds, forgotten ones included (bounded by `count`).
    var namesInOrder: Int { order.count - orderStart }

    /// The identity of `message`'s sender (`sender`, read from it once by the caller) when known; else asks the bus
    /// (once per connection) and parks `message` until the answer, for `answer(_:)` to hand back.
    func lookUp(_ message: Message, sender: String?) -> Lookup {
        guard let sender else { return .refused("the call names no sender") }
        switch entries[sender] {
        case .known(let identity): return .known(identity)
        case .refused(let reason): return .refused(reason)
        case .asking(let serial, var parked):
            parked.append(message)
            entries[sender] = .asking(serial: serial, parked: parked)
            return .parked
        case nil:
            follow()
            do {
                let call = try Message.methodCall(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "GetConnectionCredentials")
                try call.append([.string(sender)])
                let serial = try connection.send(call)
                asking[serial] = sender
                insert(sender, .asking(serial: serial, parked: [message]))
                return .parked
            } catch {
                return .refused("navd could not ask the bus: \(error.message)")
            }
        }
    }

    /// What is known of `sender` without asking: nil when nothing is, `.parked` while the bus is asked.
    func known(_ sender: String?) -> Lookup? {
        switch sender.flatMap({ entries[$0] }) {
        case .known(let identity)?: .known(identity)
        case .refused(let reason)?: .refused(reason)
        case .asking?: .parked
        case nil: nil
        }
    }

    /// The uid of `sender` when the bus gave it.
    func uid(of sender: String?) -> UInt32? {
        if case .known(let identity)? = known(sender) { return identity.uid }
        return nil
    }

    /// The calls parked for the sender whose credentials `reply` answers, once recorded; nil when
    /// `reply` answers no credentials call of this registry.
    func answer(_ reply: Message) -> [Message]? {
        guard reply.kind == .methodReturn || reply.kind == .error, let sender = asking.removeValue(forKey: reply.replySerial)
        else { return nil }
        guard case .asking(_, let parked) = entries[sender] else { return [] }
        if reply.kind == .error {
            let error = reply.bodyError
            entries[sender] = .refused("\(error?.name ?? "error"): \(error?.message ?? "")")
        } else {
            entries[sender] = .known(Self.identity(sender, from: reply))
        }
        trim()
        return parked
    }

    /// Forgets a connection that left the bus (a `NameOwnerChanged` with no new owner); its parked
    /// calls, if any, go with it (no one is there to answer).
    func forget(_ change: NameOwnerChange) {
        guard change.newOwner == nil, change.name.hasPrefix(":") else { return }
        if case .asking(let serial, _) = entries.removeValue(forKey: change.name) {
            asking[serial] = nil
        }
        compactOrder()
    }

    /// The identity the bus's `a{sv}` answer describes.
    static func identity(_ sender: String, from reply: Message) -> CallerIdentity {
        var uid: UInt32?
        var pid: UInt32?
        var groups: [UInt32]?
        if case .dictionary(_, _, let pairs)? = try? reply.body().first {
            for pair in pairs {
                guard let key = pair.key.stringValue, case .variant(let value) = pair.value else { continue }
                switch key {
                case "UnixUserID": uid = value.uint32Value
                case "ProcessID": pid = value.uint32Value
                case "UnixGroupIDs":
                    if case .array(_, let items) = value { groups = items.compactMap(\.uint32Value) }
                default: break
                }
            }
        }
        let user = uid.flatMap { UserDatabase.user($0) }
        return CallerIdentity(
            sender: sender, uid: uid, pid: pid,
            groups: groups ?? uid.map { UserDatabase.groups(of: $0) } ?? [],
            command: pid.flatMap(Self.command), userName: user?.name)
    }

    /// `/proc/PID/comm` without its newline, or nil when it cannot be read.
    static func command(_ pid: UInt32) -> String? {
        let descriptor = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 64) }
        guard count > 0 else { return nil }
        var text = String(decoding: buffer.prefix(count), as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    private func insert(_ sender: String, _ entry: Entry) {
        entries[sender] = entry
        order.append(sender)
        trim()
    }

    /// Forgets the oldest answered connections while more than `capacity` are remembered (one
    /// being asked about stays, moved to the back), and drops forgotten names from `order`.
    private func trim() {
        var skipped = 0
        while entries.count > capacity, orderStart < order.count, skipped < entries.count {
            let oldest = order[orderStart]
            orderStart += 1
            if case .asking = entries[oldest] {
                order.append(oldest)
                skipped += 1
                continue
            }
            entries[oldest] = nil
        }
        compactOrder()
    }

    /// Drops forgotten names from `order` once they outnumber the remembered ones (plus some slack, so
    /// that the copy is paid for by the insertions since the last one): its length follows `count`, so
    /// callers that come and go one after another leave nothing behind, not even their names.
    private func compactOrder() {
        guard orderStart > 1024 || order.count - orderStart > 2 * entries.count + 64 else { return }
        var seen = Set<String>()
        order = order[orderStart...].filter { entries[$0] != nil && seen.insert($0).inserted }
        orderStart = 0
    }

    /// Subscribes to the bus's `NameOwnerChanged` once, before the first question, so that no
    /// departure can fall between an answer and the rule.
    private func follow() {
        guard !following else { return }
        following = true
        try? connection.addMatch(MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            path: "/org/freedesktop/DBus"))
    }
}
