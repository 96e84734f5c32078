import DBus
import NavigatorProtocol
import Navigation

/// Group commit: calls that change a tree are applied in memory as they are read, made durable
/// together, then answered in order (reply, `StackChanged`, `FlowFinished`, one
/// `PropertiesChanged` per navigator); a navigator whose commit fails goes back to its last
/// commit and its calls are answered as if run against it.
extension NavigatorDaemon {
    /// One call answered after the commit: what `handle` returns for a call that may change a tree.
    /// A class: a pending call goes from `handle` to the batch and on to its answers, and a copy of a struct
    /// holding a change was a dozen references retained and released at each step; a class is one.
    final class PendingCall {
        let call: Message
        let navigator: ServedNavigator
        /// The reply to send once the batch is durable (nil when none is expected).
        let reply: OutgoingMessage?
        /// The change the call made (nil for a no-op or a refusal); its `StackChanged` is built
        /// when the batch is answered.
        let change: Change?
        /// What the store appends for it (nil when it changed nothing, or navd is ephemeral).
        let record: StoredRecord?

        init(call: Message, navigator: ServedNavigator, reply: OutgoingMessage?, change: consuming Change?, record: StoredRecord?) {
            self.call = call
            self.navigator = navigator
            self.reply = reply
            self.change = change
            self.record = record
        }
    }

    /// The calls read since the last commit, with the navigators they went to (in the order of their first call)
    /// and, per navigator, the properties their changes touched.
    struct Batch {
        private(set) var calls: [PendingCall] = []
        private(set) var navigators: [ServedNavigator] = []
        private(set) var properties: [PendingProperties] = []

        var isEmpty: Bool { calls.isEmpty }
        var count: Int { calls.count }

        mutating func add(_ call: PendingCall) {
            let index: Int
            if let known = navigators.firstIndex(where: { $0 === call.navigator }) {
                index = known
            } else {
                navigators.append(call.navigator)
                properties.append(PendingProperties())
                index = navigators.count - 1
            }
            if let change = call.change { properties[index].insert(change.changedProperties) }
            calls.append(call)
        }

        mutating func removeAll() {
            calls.removeAll(keepingCapacity: true)
            navigators.removeAll(keepingCapacity: true)
            properties.removeAll(keepingCapacity: true)
        }
    }

    /// Commits what the loop has read, answers it and starts the snapshots that are due: the loop's one way to
    /// make its batch durable (before a read, a reload, or when the batch is full or the loop would wait). The
    /// first reply is sent as soon as the batch is durable, before the other answers are built: with calls made
    /// one at a time, the caller waits for nothing but its change.
    func commitPending() {
        guard !batch.isEmpty else { return }
        let failures = makeDurable(batch)
        if failures.isEmpty {
            let first = batch.calls[0].reply
            if let first { send([first]) }
            send(answers(to: batch, withFirstReply: first == nil))
        } else {
            send(rollBack(batch, failures))
        }
        let navigators = batch.navigators
        // A slice of what trims cut off is released per batch: two steps per call, at least 64, more than trims
        // cut (one per change), so nothing piles up, and no batch pays for a whole trim.
        let slice = 64 + 2 * batch.count
        batch.removeAll()
        for navigator in navigators {
            // Housekeeping after the answers, each in a bounded slice: the history trims cut off, and a snapshot
            // that is due is encoded off the loop.
            navigator.coordinator.releaseTrimmedHistory(upTo: slice)
            startSnapshotIfDue(navigator)
        }
    }

    /// Appends the batch's records, one transaction per navigator's store; returns the stores that refused them.
    func makeDurable(_ batch: Batch) -> [ObjectIdentifier: StoreError] {
        var failed: [ObjectIdentifier: StoreError] = [:]
        for navigator in batch.navigators {
            guard let store = navigator.store else { continue }
            let records = batch.calls.compactMap { $0.navigator === navigator ? $0.record : nil }
            if records.isEmpty { continue }
            do {
                try store.append(records)
            } catch {
                failed[ObjectIdentifier(navigator)] = error
            }
        }
        return failed
    }

    /// The answers of a durable batch, in order: reply, `StackChanged`, `FlowFinished` per flow the change
    /// ended, and one `PropertiesChanged` per navigator at the end (without the first call's reply when
    /// `withFirstReply` is false: it went first).
    func answers(to batch: Batch, withFirstReply: Bool = true) -> [OutgoingMessage] {
        var messages: [OutgoingMessage] = []
        messages.reserveCapacity(3 * batch.count + batch.navigators.count)
        for (index, call) in batch.calls.enumerated() {
            if let reply = call.reply, index > 0 || withFirstReply { messages.append(reply) }
            appendSignals(ofChangeOf: call, to: &messages)
        }
        for (navigator, properties) in zip(batch.navigators, batch.properties) {
            if let signal = propertiesChanged(navigator, properties) { messages.append(signal) }
        }
        return messages
    }

    /// `appendSignals(of:from:to:)` for the change `call` made, if any, read where it is (binding the change to a
    /// name copied it: a dozen references retained and released).
    private func appendSignals(ofChangeOf call: PendingCall, to messages: inout [OutgoingMessage]) {
        guard let revision = call.change?.revision else { return }
        appendSignals(
            revision: revision, cause: call.change!.cause, tab: call.change!.selectedTab, path: call.change!.path,
            endedFlows: call.change!.endedFlows, from: call.navigator, to: &messages)
    }

    /// `StackChanged` and the change's `FlowFinished` signals from `navigator`'s path, appended to `messages`.
    func appendSignals(of change: Change, from navigator: ServedNavigator, to messages: inout [OutgoingMessage]) {
        appendSignals(
            revision: change.revision, cause: change.cause, tab: change.selectedTab, path: change.path,
            endedFlows: change.endedFlows, from: navigator, to: &messages)
    }

    /// `StackChanged` for the change that made `revision`, then `FlowFinished` for each of `endedFlows`.
    private func appendSignals(
        revision: UInt64, cause: String, tab: String, path: [Entry], endedFlows: [FlowEnd], from navigator: ServedNavigator,
        to messages: inout [OutgoingMessage]
    ) {
        if let signal = stackChangedSignal(navigator, revision: revision, cause: cause, tab: tab, path: path) {
            messages.append(.marshalled(signal))
        }
        for signal in flowFinishedSignals(endedFlows, revision: revision, from: navigator) { messages.append(.marshalled(signal)) }
    }

    /// One `PropertiesChanged` with `properties`' final values on `navigator`; nil when there are none.
    func propertiesChanged(_ navigator: ServedNavigator, _ properties: PendingProperties) -> OutgoingMessage? {
        guard !properties.isEmpty, let signal = propertiesChangedSignal(navigator, properties) else { return nil }
        return .marshalled(signal)
    }

    /// Announces a change made outside a method call's group commit (a reload): `StackChanged`,
    /// its `FlowFinished` signals and one `PropertiesChanged` with `properties`, in one write.
    func announce(_ change: Change?, properties: PendingProperties, from navigator: ServedNavigator) {
        var messages: [OutgoingMessage] = []
        if let change { appendSignals(of: change, from: navigator, to: &messages) }
        if let signal = propertiesChanged(navigator, properties) { messages.append(signal) }
        send(messages)
    }

    /// After failed commits: each failed navigator's state goes back to its last commit, and each
    /// call of the batch is answered in order. A call to a failed navigator is answered as if the
    /// batch had run against the restored state, with nothing made durable: a call that would change
    /// the tree is answered `StorageFailed` (and changes nothing); a no-op keeps its answer; a
    /// refusal gets its message computed against the restored state. Calls to the others are
    /// answered as committed.
    private func rollBack(_ batch: Batch, _ failures: [ObjectIdentifier: StoreError]) -> [OutgoingMessage] {
        for navigator in batch.navigators {
            guard let error = failures[ObjectIdentifier(navigator)] else { continue }
            let count = batch.calls.filter { $0.navigator === navigator }.count
            logger.error("\(navigator.logPrefix)could not commit \(count) call(s), answering StorageFailed: \(error.message)")
            do {
                navigator.coordinator = try rereadState(of: navigator)
            } catch {
                logger.critical("\(navigator.logPrefix)cannot re-read the state after a failed commit: \(error.message)")
            }
        }
        var messages: [OutgoingMessage] = []
        for call in batch.calls {
            guard let error = failures[ObjectIdentifier(call.navigator)] else {
                if let reply = call.reply { messages.append(reply) }
                appendSignals(ofChangeOf: call, to: &messages)
                continue
            }
            let failure = NavigatorErrorName.storageFailed.error(
                "the change could not be made durable, so nothing changed: \(error.message)")
            let before = call.navigator.coordinator
            let header = server.header(of: call.call)
            let (reply, answer) = respond(call.call, header: header, method: NavigatorMethod(name: header.member ?? ""), on: call.navigator)
            if case .changed(let change, _, _, _)? = answer, !change.isNoOp {
                call.navigator.coordinator = before
                if !call.call.noReplyExpected { messages.append(.message(call.call.makeError(failure))) }
            } else if let reply {
                messages.append(reply)
            }
        }
        for (navigator, properties) in zip(batch.navigators, batch.properties) where failures[ObjectIdentifier(navigator)] == nil {
            if let signal = propertiesChanged(navigator, properties) { messages.append(signal) }
        }
        return messages
    }

    func send(_ message: Message) {
        do {
            try connection.send(message)
        } catch {
            logger.error("could not send a message: \(error.message)")
        }
    }

    /// Sends `batch` in order, the marshalled messages in one write per run.
    func send(_ batch: [OutgoingMessage]) {
        if batch.isEmpty { return }
        do {
            try connection.send(batch)
        } catch {
            logger.error("could not send \(batch.count) message(s): \(error.message)")
        }
    }
}
