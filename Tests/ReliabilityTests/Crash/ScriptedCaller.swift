import DBus
import Foundation
import Navigation
import NavigatorProtocol
import TestSupport

/// A client thread that sends a fixed list of model operations to navd, one at a time, each as
/// its D-Bus method, and records what each was answered, so that the test can run the same list
/// on a model coordinator. It stops at the first call navd did not answer (navd was killed).
final class ScriptedCaller: @unchecked Sendable {
    /// What navd answered one call.
    enum Answer: Sendable {
        /// Success, with the revision the reply carried (the current one for a no-op).
        case revision(UInt64)
        /// One of navd's refusals, by its short name (`UnknownRoute`).
        case refused(String)
        /// No answer: navd died with the call in flight (it may or may not have been committed).
        case none
    }

    private let address: String
    private let operations: [Navigation.Operation]
    private let signalAfter: Int
    private let lock = NSLock()
    private var answers: [(Navigation.Operation, Answer)] = []
    private var thread: JoinableThread?
    /// Signalled once `signalAfter` calls are answered (or every call is, or navd is gone).
    let reached = DispatchSemaphore(value: 0)

    /// A caller of `operations` that signals `reached` after `signalAfter` answered calls.
    init(address: String, operations: [Navigation.Operation], signalAfter: Int) {
        self.address = address
        self.operations = operations
        self.signalAfter = signalAfter
    }

    /// Starts the thread.
    func start() {
        thread = JoinableThread("ScriptedCaller") { [self] in run() }
    }

    /// Waits up to `timeout` seconds for the thread to end; false if it did not.
    func join(timeout: Double) -> Bool {
        thread?.join(timeout: timeout) ?? false
    }

    /// Each call made, in order, with its answer; the last may be unanswered.
    var results: [(operation: Navigation.Operation, answer: Answer)] { lock.withLock { answers.map { ($0.0, $0.1) } } }

    private func run() {
        var signalled = false
        defer { if !signalled { reached.signal() } }
        guard let connection = try? Connection(.address(address)) else { return }
        defer { connection.close() }
        for (index, operation) in operations.enumerated() {
            if index == signalAfter {
                reached.signal()
                signalled = true
            }
            guard let (method, arguments) = Self.call(operation) else { continue }
            let answer: Answer
            do {
                let values = try connection.navigator(method, arguments, timeoutMilliseconds: 5_000)
                answer = .revision(values.first?.uint64Value ?? 0)
            } catch let error as DBusError where error.name.hasPrefix(Contract.errorPrefix) {
                answer = .refused(Contract.shortErrorName(error.name))
            } catch {
                lock.withLock { answers.append((operation, .none)) }
                return
            }
            lock.withLock { answers.append((operation, answer)) }
        }
    }

    /// The D-Bus method and arguments of one model operation (nil for one it has no method for).
    static func call(_ operation: Navigation.Operation) -> (String, [DBusValue])? {
        switch operation {
        case .push(let route, let params): ("Push", [.string(route), dbusValue(params)])
        case .replace(let route, let params): ("Replace", [.string(route), dbusValue(params)])
        case .present(let route, let params, let style): ("Present", [.string(route), dbusValue(params), .string(style)])
        case .pop: ("Pop", [])
        case .popToRoot: ("PopToRoot", [])
        case .dismiss: ("Dismiss", [])
        case .back: ("Back", [])
        case .selectTab(let tab): ("SelectTab", [.string(tab)])
        case .open(let target): ("Open", [.string(target)])
        case .undo: ("Undo", [])
        case .redo: ("Redo", [])
        case .setFacts(let facts): ("SetFacts", [dbusValue(facts)])
        case .start(let flow, let params): ("Start", [.string(flow), dbusValue(params)])
        case .finish(let output, let params): ("Finish", [.string(output), dbusValue(params)])
        default: nil
        }
    }

    /// `params` as the `a{sv}` a caller sends.
    static func dbusValue(_ params: InputParams) -> DBusValue {
        .vardict(params.sorted { $0.key < $1.key }.map { ($0.key, dbusValue($0.value)) })
    }

    /// One value as a caller sends it (the generator makes only scalars).
    static func dbusValue(_ value: InputValue) -> DBusValue {
        switch value {
        case .string(let text): .string(text)
        case .bool(let flag): .boolean(flag)
        case .int(let number): .int64(number)
        case .uint(let number): .uint64(number)
        case .double(let number): .double(number)
        default: .string("\(value)")
        }
    }
}
