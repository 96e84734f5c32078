#if canImport(Glibc)
import Glibc
#endif
import ClientCommandLine
import NavdClient

/// Prints a navd error on stderr and returns its exit status.
func reportNavigatorError(_ error: NavigatorError) -> Int32 {
    switch error {
    case .remote(let name, let message):
        printError(refusalText(name: name, message: message))
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

/// A refusal for stderr: `navctl: MESSAGE [NAME]`. A message of several lines (`InvalidRouteFile` names each
/// refused file as `FILE:LINE: KEY: PROBLEM` on a line of its own) keeps the name on its first line and the
/// other lines as they are, so each file line can be read (and jumped to) alone.
func refusalText(name: String, message: String) -> String {
    guard !message.isEmpty else { return "navctl: \(name) [\(name)]" }
    var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[0] = "navctl: \(lines[0]) [\(name)]"
    return lines.joined(separator: "\n")
}

/// How to start navd on the bus that was tried.
func startHint(bus: String) -> String {
    if bus.hasPrefix("session bus") { return "start navd with 'systemctl --user start navd', or just run 'navd'" }
    if bus == "system bus" { return "start navd with 'systemctl start navd', or run 'navd --system'" }
    return "start navd on that bus with 'navd --address \(bus)'"
}
