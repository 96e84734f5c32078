import DBus
import Foundation
import NavigatorProtocol
import TestSupport

extension Connection {
    /// The tree as `GetTree` returns it, with the newest history entries, the flow instances and the facts.
    func treeSnapshot(historyLimit: UInt32 = 1_000) throws -> TreeSnapshot {
        let tree = try navigator("GetTree")
        let history = try navigator("History", [.uint32(historyLimit)])
        var snapshot = try TreeSnapshot(tree: tree, history: history)
        snapshot.coordination = try coordinationState()
        return snapshot
    }

    /// `GetFlows`' reply and the `Facts` property: the durable state beside the tree.
    func coordinationState() throws -> [DBusValue] {
        let flows = try navigator(NavigatorMethod.getFlows.name)
        let facts = try call(Message.navigatorCall(
            "Get", [.string(Contract.interface), .string(NavigatorProperty.facts.name)],
            interface: "org.freedesktop.DBus.Properties")).body()
        return flows + facts
    }

    /// Every property of navd's interface (`Properties.GetAll`), by name.
    func navdProperties() throws -> [String: DBusValue] {
        let body = try call(Message.navigatorCall("GetAll", [.string(Contract.interface)], interface: "org.freedesktop.DBus.Properties")).body()
        var properties: [String: DBusValue] = [:]
        for (name, value) in body.first?.stringKeyedPairs ?? [] { properties[name] = value }
        return properties
    }

    /// `GetState`'s revision.
    func revision() throws -> UInt64 {
        guard let revision = try navigator("GetState").first?.uint64Value else {
            throw HarnessError("GetState answered without a revision")
        }
        return revision
    }
}

/// What `GetTree` and `History` said at one moment, compared whole.
struct TreeSnapshot: Equatable, Sendable {
    var revision: UInt64
    var tab: String
    /// The nodes, as they came.
    var nodes: DBusValue
    /// The history entries, as they came.
    var history: DBusValue
    /// `GetFlows`' reply and the `Facts` property, when the snapshot read them (empty otherwise).
    var coordination: [DBusValue] = []

    init(tree: [DBusValue], history: [DBusValue]) throws {
        guard tree.count == 3, let revision = tree[0].uint64Value, let tab = tree[1].stringValue, history.count == 1 else {
            throw HarnessError("GetTree or History answered an unexpected shape: \(tree.map(\.signature)) \(history.map(\.signature))")
        }
        self.revision = revision
        self.tab = tab
        nodes = tree[2]
        self.history = history[0]
    }

    /// Every node id in the tree.
    var ids: [String] { (nodes.arrayValues ?? []).compactMap { $0.structFields?.first?.stringValue } }

    /// The most screens on one line from a root screen up through pushes and layers (tab
    /// nodes not counted): the deepest path any tab could show.
    var deepestPath: Int {
        var parentOf: [String: String] = [:]
        var kindOf: [String: String] = [:]
        for node in nodes.arrayValues ?? [] {
            guard let fields = node.structFields, fields.count == 5, let id = fields[0].stringValue,
                let parent = fields[1].stringValue, let kind = fields[2].stringValue
            else { continue }
            parentOf[id] = parent
            kindOf[id] = kind
        }
        var deepest = 0
        for id in parentOf.keys where kindOf[id] != "tab" {
            var length = 0
            var current: String? = id
            while let node = current, !node.isEmpty, kindOf[node] != "tab", length <= parentOf.count {
                length += 1
                current = parentOf[node]
            }
            deepest = max(deepest, length)
        }
        return deepest
    }

    /// The revisions in the history, newest first.
    var historyRevisions: [UInt64] {
        (history.arrayValues ?? []).compactMap { $0.structFields?.first?.uint64Value }
    }

    /// The causes in the history, newest first.
    var historyCauses: [String] {
        (history.arrayValues ?? []).compactMap { $0.structFields.flatMap { $0.count > 1 ? $0[1].stringValue : nil } }
    }

    /// A short description for failure messages.
    var summary: String {
        "revision \(revision), tab '\(tab)', \(ids.count) nodes, history \(historyRevisions.prefix(5))…"
            + (coordination.isEmpty ? "" : ", flows and facts \(coordination)")
    }
}

/// Sends many calls on one connection without waiting for each answer (at most `window` in
/// flight) and hands every reply to the caller in the order the calls were made. Counts
/// calls that got no reply and replies that answered nothing (or answered twice).
final class Pipeline {
    let connection: Connection
    let window: Int
    /// Seconds to wait for the next reply before declaring the outstanding calls unanswered.
    let replyTimeout: Double

    private var outstanding: [UInt32: Int] = [:]
    private var answered: [Int: Message] = [:]
    private var nextToDeliver = 0
    private var nextIndex = 0
    /// Replies whose reply serial matched no call in flight (a second reply, or a stray one).
    private(set) var strayReplies = 0
    /// Calls that got no reply within `replyTimeout`.
    private(set) var unanswered = 0

    init(connection: Connection, window: Int = 64, replyTimeout: Double = 20) {
        self.connection = connection
        self.window = window
        self.replyTimeout = replyTimeout
    }

    /// Sends `message`; calls `deliver(index, reply)` for each reply now due, in call order.
    /// Returns the index given to this call.
    @discardableResult
    func send(_ message: Message, deliver: (Int, Message) throws -> Void) throws -> Int {
        while outstanding.count >= window {
            try receive(deliver: deliver)
        }
        let index = nextIndex
        nextIndex += 1
        let serial = try connection.send(message)
        outstanding[serial] = index
        return index
    }

    /// Sends a call flagged no-reply-expected: any reply to it will count as stray.
    func sendExpectingNoReply(_ message: Message) throws {
        try connection.send(message)
    }

    /// Waits for every reply still due and delivers them.
    func drain(deliver: (Int, Message) throws -> Void) throws {
        while !outstanding.isEmpty {
            try receive(deliver: deliver)
        }
        try deliverReady(deliver)
    }

    private func receive(deliver: (Int, Message) throws -> Void) throws {
        var gotOne = false
        while let message = connection.popMessage() {
            guard message.kind == .methodReturn || message.kind == .error else { continue }
            let serial = message.replySerial
            if let index = outstanding.removeValue(forKey: serial) {
                answered[index] = message
                gotOne = true
            } else {
                strayReplies += 1
            }
        }
        if gotOne {
            try deliverReady(deliver)
            return
        }
        switch connection.waitForMessages(timeoutMilliseconds: Int32(replyTimeout * 1000)) {
        case .timedOut:
            unanswered += outstanding.count
            let lost = outstanding.values.sorted()
            outstanding.removeAll()
            throw HarnessError("no reply within \(replyTimeout) s to \(lost.count) call(s), first index \(lost.first ?? -1)")
        case .disconnected:
            throw HarnessError("the bus connection closed with \(outstanding.count) call(s) in flight")
        case .messages, .woken:
            return
        }
    }

    private func deliverReady(_ deliver: (Int, Message) throws -> Void) throws {
        while let message = answered.removeValue(forKey: nextToDeliver) {
            try deliver(nextToDeliver, message)
            nextToDeliver += 1
        }
    }
}
