import DBus
import NavigatorProtocol
import Navigation

/// Each call the loop reads, taken in (HACKING.md's path of a call, steps 3 to 6). `handle` is the one way in for
/// every call, whatever it asks: it returns what the call comes to as a value (`Handled`), and `process` acts on it.
extension NavigatorDaemon {
    /// What one call comes to once handled.
    enum Handled {
        /// A call that may change a tree, applied in memory: it joins the batch and is answered once the batch
        /// is durable (a refusal too, so that answers keep the order of the calls).
        case change(PendingCall)
        /// The answer to send now (nil when the caller wants none): a reading, an error, a standard interface's
        /// reply. The batch before it was committed first, so it shows only durable state.
        case answer(OutgoingMessage?)
        /// A `Reload` that passed every check: its files are parsed off the loop, and it is answered when they are
        /// applied (`+Reload`). `target` nil: every route file.
        case reload(target: ServedNavigator?, call: Message)
        /// Nothing to do now: the call waits for its caller's credentials, or was answered already (a replaying
        /// navd's `Reload`).
        case none
    }

    /// Takes one incoming message: a method call is handled; news of a caller may release the calls parked
    /// for it, which are handled here in the order they came.
    func process(_ message: Message) {
        guard message.kind == .methodCall else {
            if let released = takeCallerNews(message) {
                for call in released { take(handle(call)) }
                return
            }
            if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                logger.error("the bus closed the connection")
            }
            return
        }
        take(handle(message))
    }

    /// Acts on what a call came to: a change joins the batch (committed when it is full), an answer is sent,
    /// a reload is queued.
    func take(_ handled: Handled) {
        switch handled {
        case .change(let call):
            batch.add(call)
            if batch.count >= Self.maxPendingCalls { commitPending() }
        case .answer(let reply):
            if let reply { send([reply]) }
        case .reload(let target, let call):
            requestReload(of: target, answering: call)
        case .none:
            break
        }
    }

    /// Handles one method call, whatever it asks: checked by the object server (object, interface, method, access,
    /// signature), read into its typed value and answered as the contract declares (`answer`). A call that may
    /// change a tree is applied in memory and comes back as a pending call; anything else is answered after the
    /// batch before it is committed, so that reads see only durable state.
    func handle(_ message: Message) -> Handled {
        guard let caller = caller(of: message) else { return .none }
        let header = server.header(of: message)
        guard let navigator = header.interface == nil || header.interface == Navigator.interfaceName
            ? navigators[header.path ?? ""] : nil
        else {
            // Another object (an app that is not served, the apps node) or a standard interface.
            commitPending()
            if let unknown = unknownAppReply(message) { return .answer(.message(unknown)) }
            return .answer(server.handleForSending(message, header: header))
        }
        let method = NavigatorMethod(name: header.member ?? "")
        let changes = method?.changesTree == true
        if changes {
            prepareRecordedChange(on: navigator)
        } else {
            commitPending()
        }
        let topBefore = method == .send ? navigator.coordinator.top.id : ""
        let (reply, answer) = respond(message, header: header, method: method, on: navigator)
        switch consume answer {  // taken apart, not copied: a generic destroy of the whole answer cost about 1 K a call
        case .changed(let change, _, let call, let arguments)?:
            guard let method else { return .change(pendingCall(message, on: navigator, reply: reply)) }  // (never: only methods change)
            return .change(pendingCall(
                method, message, on: navigator, reply: reply, change: change, call: call, arguments: arguments, caller: caller, topBefore: topBefore))
        case .reload?:
            if replayReload(message, on: navigator) { return .none }
            return .reload(target: navigator === main ? nil : navigator, call: message)
        case .reply?, nil:
            return changes ? .change(pendingCall(message, on: navigator, reply: reply)) : .answer(reply)
        }
    }

    /// A call to `navigator`'s object checked by the object server and answered by `answer`: the reply (nil when
    /// the caller wants none, or for a `Reload`, answered when it is done) and what the handler answered (nil when
    /// a check or the handler refused the call, the refusal being the reply).
    func respond(
        _ message: Message, header: CallHeader, method: NavigatorMethod?, on navigator: ServedNavigator
    ) -> (reply: OutgoingMessage?, answer: Answer?) {
        let wanted = !message.noReplyExpected
        let checked: ObjectServer.CheckedCall
        switch server.check(message, header: header) {
        case .answered(let reply):
            return (wanted ? reply : nil, nil)
        case .checked(let call):
            checked = call
        }
        do {
            guard let method else {
                throw DBusError.failed("navd \(Navigator.version) has no handler for \(header.member ?? "")")
            }
            let answer = try answer(method, checked.call, on: navigator)
            switch answer {
            case .reply(let values), .changed(_, let values, _, _):
                return (wanted ? server.reply(to: checked, values) : nil, answer)
            case .reload:
                return (nil, answer)
            }
        } catch {
            return (wanted ? server.reply(to: checked, failure: error) : nil, nil)
        }
    }

    /// A call that may change `navigator`'s tree and changed nothing (a refusal, or a reply with no change), answered
    /// in memory: what to reply once the batch is durable.
    func pendingCall(_ message: Message, on navigator: ServedNavigator, reply: OutgoingMessage?) -> PendingCall {
        if options.verbose {
            logger.debug("\(navigator.logPrefix)\(message.member ?? "?") from \(message.sender ?? "?") → \(reply?.errorName ?? "no reply")")
        }
        return PendingCall(call: message, navigator: navigator, reply: reply, change: nil, record: nil)
    }

    /// A call of `method` (`call`, read from `arguments`) from `caller` that made `change` in `navigator`'s tree, in
    /// memory: what to reply once the batch is durable, what changed (nil for a no-op), and what the store is to
    /// append. The change is taken, not copied: a copy of a `Change` is a dozen references retained and released.
    func pendingCall(
        _ method: NavigatorMethod, _ message: Message, on navigator: ServedNavigator, reply: OutgoingMessage?,
        change: consuming Change, call: NavigatorCall, arguments: [DBusValue], caller: Caller, topBefore: String
    ) -> PendingCall {
        if options.verbose {
            logger.debug("\(navigator.logPrefix)\(message.member ?? "?") from \(message.sender ?? "?") → \(change.isNoOp ? "no-op at \(change.revision)" : "revision \(change.revision)")")
        }
        guard !change.isNoOp else { return PendingCall(call: message, navigator: navigator, reply: reply, change: nil, record: nil) }
        noteRecordedChange(on: navigator)
        for note in change.notes { logger.notice("\(navigator.logPrefix)\(note)") }
        // The record is made optional once and moved into the history step; the change's journal record is read where
        // it is. Copies of either were a handful of references retained and released each.
        var record: ChangeRecord? = changeRecord(method: method, call: call, arguments: arguments, caller: caller, change: change, topBefore: topBefore)
        // An ephemeral navd journals nothing, so it encodes nothing either.
        var stored: StoredRecord?
        if navigator.store != nil, let revision = change.record?.entry.revision {
            let payload = JournalRecord.encoded(entry: change.record!.entry, operation: change.record!.operation, changeRecord: record)
            stored = StoredRecord(revision: revision, nextId: navigator.coordinator.state.nextIdNumber, payload: payload)
        }
        navigator.coordinator.record(&record, forRevision: change.revision)
        return PendingCall(call: message, navigator: navigator, reply: reply, change: consume change, record: stored)
    }
}
