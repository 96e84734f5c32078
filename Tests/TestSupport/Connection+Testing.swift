import DBus
import Foundation

extension Connection {
    /// Waits up to `timeout` seconds for an incoming message accepted by `matching`,
    /// dropping the others; nil on timeout or disconnection. For tests only: a service
    /// would not throw messages away.
    public func waitForMessage(timeout: Double = 5, matching: (Message) -> Bool) -> Message? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let message = popMessage() {
                if matching(message) { return message }
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            if waitForMessages(timeoutMilliseconds: Int32(remaining * 1000) + 1) == .disconnected {
                return popMessage().flatMap { matching($0) ? $0 : nil }
            }
        }
    }
}
