#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ClientCommandLine
import NavdClient

// Parse, run, and turn every outcome into one of the exit statuses of ExitStatus.
var command: ParsableCommand
do {
    if var fast = fastParse(Array(CommandLine.arguments.dropFirst())) {
        try fast.validate()
        command = fast
    } else {
        let arguments = reorderGlobalOptions(Array(CommandLine.arguments.dropFirst()), subcommands: Navctl.subcommandNames)
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
