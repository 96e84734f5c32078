import DBus
import NavigatorProtocol
import Navigation

/// Group commit: calls that change a tree are applied in memory as they are read, made durable
/// together, then answered in order (reply, `StackChanged`, `FlowFinished`, one
/// `PropertiesChanged` per navigator); a navigator whose commit fails goes back to its last
/// commit and its calls are answered as if run against it.
extension NavigatorDaemon {
    /// One answered-after-commit call.
    struct PendingCall {
        let call: Message
        let method: NavigatorMethod
        let navigator: ServedNavigator
        let reply: OutgoingMessage?
        let succeeded: Bool
        /// The change the call made (nil for a no-op or a refusal); its `StackChanged` is built
        /// when the batch is answered.
        let change: Change?
        let record: StoredRecord?
    }

    /// Commits the pending changes, one transaction per navigator's store, then answers them in
    /// order: reply, `StackChanged`, `FlowFinished` per flow the change ended, and one
    /// `PropertiesChanged` per navigator at the end. The first reply is written as soon as its
    /// change is durable; the rest follows in one write. If a navigator's commit fails, every call
    /// to it that succeeded in memory is answered `StorageFailed` and its state goes back to its
    /// last commit; the other navigators' calls are answered as usual.
    func commitPending() {
        var failed: [ObjectIdentifier: StoreError] = [:]
        for navigator in pendingNavigators {
            guard let store = navigator.store else { continue }
            let records = pending.compactMap { $0.navigator === navigator ? $0.record : nil }
            if records.isEmpty { continue }
            do {
                try store.append(records)
            } catch {
                failed[ObjectIdentifier(navigator)] = error
            }
        }
        if !failed.isEmpty {
            rollBack(failed)
            return
        }
        outgoing.removeAll(keepingCapacity: true)
        for (index, call) in pending.enumerated() {
            if let reply = call.reply {
                outgoing.append(reply)
                if index == 0 { sendOutgoing() }
            }
            if let change = call.change {
                appendSignals(of: change, from: call.navigator)
            }
        }
        for navigator in pendingNavigators {
            appendPropertiesChanged(navigator)
        }
        sendOutgoing()
        for navigator in pendingNavigators { startSnapshotIfDue(navigator) }
        pending.removeAll(keepingCapacity: true)
        pendingNavigators.removeAll(keepingCapacity: true)
    }

    /// `StackChanged` and the change's `FlowFinished` signals from `navigator`'s path, into `outgoing`.
    func appendSignals(of change: Change, from navigator: ServedNavigator) {
        if let signal = stackChangedSignal(
            navigator, revision: change.revision, cause: change.cause, tab: change.selectedTab, path: change.path
        ) {
            outgoing.append(.marshalled(signal))
        }
        for signal in flowFinishedSignals(change, from: navigator) { outgoing.append(.marshalled(signal)) }
    }

    /// One `PropertiesChanged` with `navigator`'s pending properties (if any), into `outgoing`.
    func appendPropertiesChanged(_ navigator: ServedNavigator) {
        if !navigator.pendingProperties.isEmpty, let signal = propertiesChangedSignal(navigator, navigator.pendingProperties) {
            outgoing.append(.marshalled(signal))
        }
        navigator.pendingProperties.removeAll()
    }

    /// Announces a change made outside a method call's group commit (a reload): `StackChanged`,
    /// its `FlowFinished` signals and one `PropertiesChanged`, in one write.
    func announce(_ change: Change?, from navigator: ServedNavigator) {
        outgoing.removeAll(keepingCapacity: true)
        if let change { appendSignals(of: change, from: navigator) }
        appendPropertiesChanged(navigator)
        sendOutgoing()
    }

    /// After failed commits: each failed navigator's state goes back to its last commit, and each
    /// call of the batch is answered in order. A call to a failed navigator is answered as if the
    /// batch had run against the restored state, with nothing made durable: a call that would change
    /// the tree is answered `StorageFailed` (and changes nothing); a no-op keeps its answer; a
    /// refusal gets its message computed against the restored state. Calls to the others are
    /// answered as committed.
    private func rollBack(_ failures: [ObjectIdentifier: StoreError]) {
        let batch = pending
        let navigatorsInBatch = pendingNavigators
        pending.removeAll(keepingCapacity: true)
        pendingNavigators.removeAll(keepingCapacity: true)
        for navigator in navigatorsInBatch {
            guard let error = failures[ObjectIdentifier(navigator)] else { continue }
            let count = batch.filter { $0.navigator === navigator }.count
            logger.error("\(navigator.logPrefix)could not commit \(count) call(s), answering StorageFailed: \(error.message)")
            do {
                navigator.coordinator = try rereadState(of: navigator)
            } catch {
                logger.critical("\(navigator.logPrefix)cannot re-read the state after a failed commit: \(error.message)")
            }
            navigator.pendingProperties.removeAll()
        }
        outgoing.removeAll(keepingCapacity: true)
        for call in batch {
            guard let error = failures[ObjectIdentifier(call.navigator)] else {
                if let reply = call.reply { outgoing.append(reply) }
                if let change = call.change { appendSignals(of: change, from: call.navigator) }
                continue
            }
            let failure = NavigatorErrorName.storageFailed.error(
                "the change could not be made durable, so nothing changed: \(error.message)")
            let before = call.navigator.coordinator
            let (reply, change, _) = answerChanging(call.method, call.call, header: CallHeader(call.call), on: call.navigator)
            if let change, !change.isNoOp {
                call.navigator.coordinator = before
                if !call.call.noReplyExpected { outgoing.append(.message(call.call.makeError(failure))) }
            } else if let reply {
                outgoing.append(reply)
            }
        }
        for navigator in navigatorsInBatch where failures[ObjectIdentifier(navigator)] == nil {
            appendPropertiesChanged(navigator)
        }
        sendOutgoing()
    }

    func send(_ message: Message) {
        do {
            try connection.send(message)
        } catch {
            logger.error("could not send a message: \(error.message)")
        }
    }

    /// Sends what `outgoing` holds (if anything) and empties it.
    func sendOutgoing() {
        if outgoing.isEmpty { return }
        send(outgoing)
        outgoing.removeAll(keepingCapacity: true)
    }

    /// Sends `batch` in order, the marshalled messages in one write per run.
    func send(_ batch: [OutgoingMessage]) {
        do {
            try connection.send(batch)
        } catch {
            logger.error("could not send \(batch.count) message(s): \(error.message)")
        }
    }
}
