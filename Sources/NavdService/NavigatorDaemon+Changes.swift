import DBus
import NavigatorProtocol
import Navigation

/// Who changed what (docs/devtools.md, GetChanges): the record kept with each change, made here from the call
/// and the caller the bus described (`CallerRegistry`), and GetChanges' answer made from the kept records.
extension NavigatorDaemon {
    /// The record of a call of `method` (`call`, read from `arguments`) from `caller` that made `change`;
    /// `topBefore` is the id of the screen on top before it (what Send's source "" names).
    func changeRecord(
        method: NavigatorMethod, call: NavigatorCall, arguments: [DBusValue], caller: Caller, change: Change, topBefore: String
    ) -> ChangeRecord {
        var record = callerRecord(caller, method: method.name)
        record.arguments = RecordedArguments.encode(arguments)
        if case .send(let call) = call {
            record.details[ChangeDetail.event.rawValue] = call.event
            record.details[ChangeDetail.source.rawValue] = call.source.isEmpty ? topBefore : call.source
            record.details[ChangeDetail.outcome.rawValue] = change.outcome.rawValue
        }
        return record
    }

    /// The record of a reconcile at start (`start`) or after a reload (`reload`); `caller` names the `Reload`
    /// call that asked for it, if one did.
    static func reconcileRecord(reason: String, caller: ChangeRecord? = nil) -> ChangeRecord {
        var record = caller ?? ChangeRecord(method: "")
        record.details[ChangeDetail.reason.rawValue] = reason
        return record
    }

    /// The record of a reconcile after a reload that `call` asked for (nil: SIGHUP).
    func reloadRecord(asked call: Message?) -> ChangeRecord {
        Self.reconcileRecord(reason: "reload", caller: call.map { callerRecord($0, method: "") })
    }

    /// The method name and the caller of `message`, as the bus described it.
    private func callerRecord(_ message: Message, method: String) -> ChangeRecord {
        let sender = message.sender
        var identity: CallerIdentity?
        if case .known(let known)? = callers.known(sender) { identity = known }
        return callerRecord(Caller(sender: sender, identity: identity), method: method)
    }

    /// The method name and `caller`, as the bus described it.
    private func callerRecord(_ caller: Caller, method: String) -> ChangeRecord {
        var record = ChangeRecord(method: method, sender: caller.sender)
        if let identity = caller.identity {
            record.uid = identity.uid
            record.pid = identity.pid
            record.command = identity.command
        }
        return record
    }

    /// GetChanges' answer: the kept changes from `from_revision`, oldest first, at most `limit`.
    func changes(_ call: ChangesArguments, on nav: ServedNavigator) throws(DBusError) -> Answer {
        let changes = nav.coordinator.changes(from: call.fromRevision, limit: Int(call.limit)).map(Self.recordedChange)
        return .reply([changes.dbusValue])
    }

    /// A kept change as GetChanges lists it.
    static func recordedChange(_ info: ChangeInfo) -> RecordedChange {
        var details: [String: DBusValue] = [:]
        let record = info.record
        if let record, !record.method.isEmpty {
            let values = RecordedArguments.decode(record.arguments) ?? []
            details[ChangeDetail.args.rawValue] = .array(element: "v", values.map { .variant($0) })
        }
        if let sender = record?.sender { details[ChangeDetail.sender.rawValue] = .string(sender) }
        if let uid = record?.uid { details[ChangeDetail.uid.rawValue] = .uint32(uid) }
        if let pid = record?.pid { details[ChangeDetail.pid.rawValue] = .uint32(pid) }
        if let command = record?.command { details[ChangeDetail.command.rawValue] = .string(command) }
        for (key, value) in record?.details ?? [:] { details[key] = .string(value) }
        if let tab = info.tab { details[ChangeDetail.tab.rawValue] = .string(tab) }
        if let top = info.top { details[ChangeDetail.top.rawValue] = .string(top) }
        return RecordedChange(
            revision: info.entry.revision, cause: info.entry.cause, time: info.entry.time, method: record?.method ?? "",
            details: details)
    }
}
