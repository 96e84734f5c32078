import DBus
import NavigatorProtocol
import Navigation

/// Each call the loop reads, taken in (HACKING.md's path of a call, steps 3 to 6): reads answered at once after
/// the batch is committed, changes applied in memory and added to the batch as values.
extension NavigatorDaemon {
    /// Takes one incoming message: a method call is handled; news of a caller may release the calls parked
    /// for it, which are handled here in the order they came.
    func process(_ message: Message) {
        guard message.kind == .methodCall else {
            if let released = takeCallerNews(message) {
                for call in released { handle(call) }
                return
            }
            if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                logger.error("the bus closed the connection")
            }
            return
        }
        handle(message)
    }

    /// Handles one method call: a call that may change a tree is applied in memory and joins the batch, to be
    /// answered once durable; anything else is answered at once, after committing the batch, so that reads see
    /// only durable state. `Reload` is answered when its files are parsed (off this thread) and applied.
    func handle(_ message: Message) {
        if waitsForCaller(message) { return }
        let header = CallHeader(message)
        let target = header.interface == nil || header.interface == Navigator.interfaceName
            ? navigators[header.path ?? ""] : nil
        let member = header.member ?? ""
        if let target, member == NavigatorMethod.reload.name, message.signature.isEmpty {
            commitPending()
            if let refusal = refusal(of: message, to: target, interface: Navigator.interfaceName, member: member) {
                if !message.noReplyExpected { send(message.makeError(refusal)) }
                return
            }
            if replayReload(message, on: target) { return }
            requestReload(of: target === main ? nil : target, answering: message)
            return
        }
        guard let navigator = target, let method = NavigatorMethod(name: member), method.changesTree else {
            commitPending()
            if let reply = unknownAppReply(message) ?? server.handle(message) { send(reply) }
            return
        }
        batch.add(handleChange(method, message, header: header, on: navigator))
        if batch.count >= Self.maxPendingCalls { commitPending() }
    }

    /// A call that may change `navigator`'s tree, answered in memory: what to reply once the batch is durable,
    /// what changed, and what the store is to append.
    func handleChange(_ method: NavigatorMethod, _ message: Message, header: CallHeader, on navigator: ServedNavigator) -> PendingCall {
        prepareRecordedChange(on: navigator)
        let topBefore = method == .send ? navigator.coordinator.top.id : ""
        let (reply, change, arguments) = answerChanging(method, message, header: header, on: navigator)
        noteRecordedChange(change, on: navigator)
        if options.verbose {
            logger.debug("\(navigator.logPrefix)\(message.member ?? "?") from \(message.sender ?? "?") → \(change.map { $0.isNoOp ? "no-op at \($0.revision)" : "revision \($0.revision)" } ?? (reply?.errorName ?? "no reply"))")
        }
        guard let change, !change.isNoOp else {
            return PendingCall(call: message, method: method, navigator: navigator, reply: reply, change: nil, record: nil)
        }
        for note in change.notes { logger.notice("\(navigator.logPrefix)\(note)") }
        let record = changeRecord(message, method: method, arguments: arguments, change: change, topBefore: topBefore)
        navigator.coordinator.record(record, forRevision: change.revision)
        // An ephemeral navd journals nothing, so it encodes nothing either.
        let stored = navigator.store == nil ? nil : change.record.map { journaled in
            var journaled = journaled
            journaled.changeRecord = record
            return StoredRecord(revision: journaled.entry.revision, nextId: navigator.coordinator.state.nextIdNumber, payload: journaled.encoded())
        }
        return PendingCall(call: message, method: method, navigator: navigator, reply: reply, change: change, record: stored)
    }

    /// A call that may change `navigator`'s tree, answered by its handler after the object server's checks:
    /// the reply to send once the change is durable, the change (nil for a refusal) and the arguments.
    func answerChanging(
        _ method: NavigatorMethod, _ message: Message, header: CallHeader, on navigator: ServedNavigator
    ) -> (reply: OutgoingMessage?, change: Change?, arguments: [DBusValue]) {
        let wanted = !message.noReplyExpected
        switch server.check(message, header: header) {
        case .answered(let reply):
            return (wanted ? reply : nil, nil, [])
        case .checked(let checked):
            do {
                let answer = try answer(method, checked.call, on: navigator)
                return (wanted ? server.reply(to: checked, answer.values) : nil, answer.change, answer.arguments)
            } catch {
                return (wanted ? server.reply(to: checked, failure: error) : nil, nil, [])
            }
        }
    }
}
