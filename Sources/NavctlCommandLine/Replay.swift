#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ChildProcesses
import ClientCommandLine
import DBus
import NavdClient
import NavigatorProtocol

/// `navctl replay FILE [--routes FILE]`: a recording's requests sent again, in order and with their recorded
/// types, to a navd of its own on a private bus, each answer compared with the recording (docs/devtools.md,
/// "Recordings"). Exit 0 all equal, 1 a difference (the first is printed), 2 a bad file, 3 the replaying
/// navd died, hung or did not start.
struct Replay: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("replay")
    static let abstract = "Replay a recording (navctl export) on a private bus and navd, comparing every change."
    static let discussion = """
        The replay never uses the bus options: it starts its own dbus-daemon and navd --ephemeral \
        --from-recording FILE, and stops both whatever happens. --timeout is how long that navd may take \
        to start and to answer each call. Exit status: 0 all equal, 1 a change differs \
        (the first is printed), 2 a bad recording or route file, 3 the replaying navd died, hung or did not start.
        """

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("The recording.", valueName: "file")) var file: String
    @Option(help: ArgumentHelp("Replay under this route file instead of the recorded graphs.", valueName: "file"))
    var routes: String?

    func run() throws {
        let timeout = options.connection.timeout
        do {
            let script = try ReplayScript(file: file)
            let sandbox = try ReplaySandbox(recording: file, routes: routes, startSeconds: timeout)
            defer { sandbox.stop() }
            let replayer = try Replayer(script: script, sandbox: sandbox, routes: routes, timeout: timeout)
            if let difference = try replayer.run() {
                for line in difference { print(line) }
                throw ExitCode(ExitStatus.refused)
            }
            print("replayed \(script.steps.count) changes: all equal")
        } catch let failure as ReplayFailure {
            printError(failure.message)
            throw ExitCode(failure.status)
        }
    }
}

/// One replay's calls on the private bus: the start checked, then every recorded change sent and compared.
struct Replayer {
    let script: ReplayScript
    let sandbox: ReplaySandbox
    let routes: String?
    let client: NavigatorClient
    let timeoutMilliseconds: Int32

    init(script: ReplayScript, sandbox: ReplaySandbox, routes: String?, timeout: Double) throws(ReplayFailure) {
        self.script = script
        self.sandbox = sandbox
        self.routes = routes
        timeoutMilliseconds = Int32(timeout * 1000)
        do {
            client = try NavigatorClient(bus: .address(sandbox.bus.address), timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw .broken("navctl: replay: cannot connect to the private bus: \(error)")
        }
    }

    /// The report of the first difference, or nil when every change compared equal.
    func run() throws(ReplayFailure) -> [String]? {
        let start = try state(during: "the start")
        if start.revision != script.startRevision {
            let recorded = VisibleState(revision: script.startRevision, tab: start.tab, path: [])
            var lines = ReplayComparison(recorded: recorded, replayed: .state(start), byType: script.redacted)
                .report(heading: "start", request: "")
            lines.insert("  the start state (revision \(script.startRevision)) needs repair under \(routes ?? "the recorded graph"): navd repaired it as revision \(start.revision)".terminalSafe, at: 1)
            return lines
        }
        for (index, step) in script.steps.enumerated() {
            let what = "change \(index + 1) of \(script.steps.count) (revision \(step.recorded.revision))"
            let replayed: ReplayedResult
            if let refusal = try call(step, during: what) {
                replayed = refusal
            } else {
                replayed = .state(try state(during: what))
            }
            let comparison = ReplayComparison(recorded: step.recorded, replayed: replayed, byType: script.redacted)
            if !comparison.isEqual {
                let heading = "revision \(step.recorded.revision) (change \(index + 1) of \(script.steps.count))"
                return comparison.report(heading: heading, request: step.requestText)
            }
        }
        return nil
    }

    /// Sends `step`'s request; nil when answered, `.refused` when navd refused it as a navigator.
    private func call(_ step: ReplayStep, during what: String) throws(ReplayFailure) -> ReplayedResult? {
        do {
            let message = try Message.methodCall(
                destination: Navigator.busName, path: Navigator.objectPath.rawValue, interface: Navigator.interfaceName,
                member: step.member)
            try message.append(step.arguments)
            _ = try client.connection.call(message, timeoutMilliseconds: timeoutMilliseconds)
            return nil
        } catch {
            if error.name.hasPrefix(Navigator.errorPrefix) { return .refused(name: error.name, message: error.message) }
            if [DBusErrorName.invalidArgs, DBusErrorName.unknownMethod].contains(error.name) {
                throw .badInput("navctl: replay: \(script.file): \(what): navd refuses to read the request \(step.requestText): \(error.message) [\(error.name)]")
            }
            throw failure(error, during: what)
        }
    }

    /// GetState, or the failure that made it impossible.
    private func state(during what: String) throws(ReplayFailure) -> VisibleState {
        do {
            return try client.send(.getState)
        } catch {
            switch error {
            case .remote(let name, let message):
                throw failure(DBusError(name: name, message: message), during: what)
            case .unreachable(_, let reason):
                // The client's name for a call that got no reply (a timeout or a closed connection).
                throw failure(DBusError(name: DBusErrorName.noReply, message: reason), during: what)
            case .unexpectedReply:
                throw failure(DBusError(name: DBusErrorName.failed, message: "\(error)"), during: what)
            }
        }
    }

    /// What a call that got no answer says about the replaying navd: it died, or it hung.
    private func failure(_ error: DBusError, during what: String) -> ReplayFailure {
        // The bus sees a killed navd's connection close a moment before the process can be reaped (and libdbus
        // names that NoReply too, as a timeout): give it a second to show which it was.
        let deadline = ProcessExit.monotonicSeconds() + 1
        while sandbox.exitStatus == nil, ProcessExit.monotonicSeconds() < deadline {
            usleep(5_000)
        }
        if let status = sandbox.exitStatus {
            return .broken("navctl: replay: the replaying navd died (exit status \(status)) during \(what); its last words:\n\(sandbox.navdLog)")
        }
        if error.name == DBusErrorName.noReply {
            return .broken("navctl: replay: the replaying navd did not answer \(what) within \(Double(timeoutMilliseconds) / 1000) s: stopped as hung")
        }
        return .broken("navctl: replay: \(what): \(error.message) [\(error.name)]")
    }
}
