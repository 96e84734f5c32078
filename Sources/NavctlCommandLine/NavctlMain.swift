#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ClientCommandLine
import NavdClient

/// navctl's whole run, as `navctl` (a link to navd, Sources/navd/main.swift) or `man-navctl` starts it: parse,
/// run, and turn every outcome into one of the exit statuses of ExitStatus. `arguments` excludes the
/// command's own name.
public func navctlMain(_ arguments: [String]) -> Never {
    var command: ParsableCommand
    do {
        if var fast = fastParse(arguments) {
            try fast.validate()
            command = fast
        } else {
            let arguments = reorderGlobalOptions(arguments, subcommands: Navctl.subcommandNames)
            command = try Navctl.parseAsRoot(arguments)
        }
    } catch {
        exit(ExitStatus.report(parserError: error, of: Navctl.self))
    }
    do {
        try command.run()
        fflush(nil)
        exit(ExitStatus.success)
    } catch let error as NavigatorError {
        fflush(nil)
        exit(reportNavigatorError(error))
    } catch {
        fflush(nil)
        exit(ExitStatus.report(parserError: error, of: Navctl.self))
    }
}
