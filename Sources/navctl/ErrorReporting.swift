#if canImport(Glibc)
import Glibc
#endif
import ClientCommandLine
import NavdClient

/// Prints a navd error on stderr and returns its exit status.
func reportNavigatorError(_ error: NavigatorError) -> Int32 {
    switch error {
    case .remote(let name, let message):
        printError("navctl: \(message.isEmpty ? name : message) [\(name)]")
        return ExitStatus.refused
    case .unreachable(let bus, let reason):
        printError("navctl: navd is not reachable on \(bus): \(reason)")
        printError("hint: \(startHint(bus: bus))")
        return ExitStatus.unreachable
    case .unexpectedReply:
        printError("navctl: \(error)")
        return ExitStatus.refused
    }
}

/// How to start navd on the bus that was tried.
func startHint(bus: String) -> String {
    if bus.hasPrefix("session bus") { return "start navd with 'systemctl --user start navd', or just run 'navd'" }
    if bus == "system bus" { return "start navd with 'systemctl start navd', or run 'navd --system'" }
    return "start navd on that bus with 'navd --address \(bus)'"
}
