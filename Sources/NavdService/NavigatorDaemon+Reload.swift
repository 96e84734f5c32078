import DBus
import NavigatorProtocol
import Navigation

#if canImport(Glibc)
import Glibc
#endif

/// A reload asked for while another was under way: `Reload` on an app's object, on the default
/// object (every file), or `SIGHUP` (every file, no call to answer).
struct QueuedReload {
    /// The app reloaded alone; nil: every route file.
    let target: ServedNavigator?
    /// The `Reload` call to answer; nil for SIGHUP.
    let call: Message?
    /// Whether SIGHUP asked for it (its outcome is logged).
    var fromSignal: Bool
}

/// Reloading route files, the queue: one reload at a time, its changed files parsed on a thread of
/// its own while every navigator's calls are answered; `Reload` calls and SIGHUP wait behind it,
/// at most `maximumWaitingReloads` calls (SIGHUPs coalesce). A stopping navd waits for the reload
/// under way at most `reloadStopWaitMilliseconds`, then answers what is left with an error.
extension NavigatorDaemon {
    /// The most `Reload` calls that wait behind the reload under way; more are refused with
    /// `LimitsExceeded` (`docs/reliability.md#bounded-route-files`).
    static let maximumWaitingReloads = 16

    /// Starts a reload of every route file (`target` nil) or of one app's, answering `call` (if any)
    /// when it is done; while another reload is under way it waits its turn. A call that would be
    /// the 17th waiting is answered `LimitsExceeded` at once; a SIGHUP while a reload of every file
    /// waits (not yet started) joins it.
    func requestReload(of target: ServedNavigator?, answering call: Message?, fromSignal: Bool = false) {
        if fromSignal, let waiting = queuedReloads.firstIndex(where: { $0.target == nil }) {
            queuedReloads[waiting].fromSignal = true
            return
        }
        if let call, reloadInFlight != nil {
            let waiting = queuedReloads.count { $0.call != nil }
            if waiting >= Self.maximumWaitingReloads {
                if !call.noReplyExpected {
                    send(call.makeError(DBusError(
                        name: DBusErrorName.limitsExceeded,
                        message: "a reload is under way and \(waiting) Reload calls wait behind it, the most that may wait; call Reload again once they are answered")))
                }
                return
            }
        }
        queuedReloads.append(QueuedReload(target: target, call: call, fromSignal: fromSignal))
        startQueuedReloads()
    }

    /// Starts the queued reloads in order until one has to wait for its parsing thread.
    func startQueuedReloads() {
        while reloadInFlight == nil, !queuedReloads.isEmpty {
            let next = queuedReloads.removeFirst()
            if let target = next.target, navigators[target.path.rawValue] !== target {
                // The app went while this call waited: answer as for any unknown app.
                if let call = next.call, let reply = unknownAppReply(call) { send(reply) }
                continue
            }
            let job = plannedReload(of: next.target, answering: next.call.map { [$0] } ?? [], fromSignal: next.fromSignal)
            // Files that changed are parsed on a thread of their own, so that calls to every navigator
            // go on meanwhile; the loop applies the result when the thread wakes it.
            if job.hasWork, job.startParsing(waking: connection.waker) {
                reloadInFlight = job
            } else {
                job.parse()
                finishAndAnswer(job)
            }
        }
    }

    /// Applies the reload under way once its files are parsed; then starts the next one.
    func finishParsedReload() {
        guard let job = reloadInFlight, job.isParsed else { return }
        reloadInFlight = nil
        finishAndAnswer(job)
        startQueuedReloads()
    }

    /// At shutdown: finishes the reload under way and the queued ones, waiting at most
    /// `reloadStopWaitMilliseconds` in all for their parsing; then abandons what is left, every
    /// call of it answered with an error (a stop is never held up by a route file).
    func finishReloadsBeforeStopping() {
        let deadline = MonotonicClock.milliseconds() + Int64(reloadStopWaitMilliseconds)
        while reloadInFlight != nil || !queuedReloads.isEmpty {
            if let job = reloadInFlight, !job.isParsed {
                if MonotonicClock.milliseconds() >= deadline {
                    abandonReloads()
                    return
                }
                usleep(2_000)
                continue
            }
            finishParsedReload()
            startQueuedReloads()
        }
    }

    /// Gives up the reload under way and the queued ones: nothing of them is applied, each of
    /// their calls is answered that navd is stopping.
    private func abandonReloads() {
        let calls = (reloadInFlight?.calls ?? []) + queuedReloads.compactMap(\.call)
        reloadInFlight?.abandon()
        reloadInFlight = nil
        queuedReloads.removeAll()
        logger.warning("stopping with a reload under way whose files were still being parsed after \(reloadStopWaitMilliseconds) ms: abandoned, with \(calls.count) Reload call(s) answered that nothing was reloaded")
        let stopping = DBusError(
            name: DBusErrorName.failed,
            message: "navd is stopping and did not finish this reload (its route files were still being parsed): nothing was reloaded; call Reload again once navd runs")
        for call in calls where !call.noReplyExpected { send(call.makeError(stopping)) }
        connection.flush()
    }

    /// Applies a parsed reload and answers its calls: each with its navigator's revision after it,
    /// or the reload's error.
    func finishAndAnswer(_ job: ReloadJob) {
        let outcome = finish(job)
        for call in job.calls where !call.noReplyExpected {
            if let error = outcome.error {
                send(call.makeError(error))
            } else if let navigator = navigators[call.path ?? ""] {
                do {
                    send(try call.makeReply([.uint64(navigator.coordinator.revision)]))
                } catch {
                    send(call.makeError(error))
                }
            } else if let reply = unknownAppReply(call) {
                send(reply)
            }
        }
        if job.fromSignal {
            for refused in outcome.refused { logger.error("refused route file: \(refused)") }
            for failure in outcome.storageFailures { logger.error("reload not made durable: \(failure)") }
        }
        connection.flush()
    }

    /// SIGHUP: reloads every route file (off the loop's thread), logging what was refused.
    func reloadOnSignal() {
        logger.notice("reloading every route file (SIGHUP)")
        requestReload(of: nil, answering: nil, fromSignal: true)
    }
}
