#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import NavdClient

// Parse, run, and turn every outcome into one of the exit statuses of ExitStatus.
let arguments = reorderGlobalOptions(Array(CommandLine.arguments.dropFirst()), subcommands: Navctl.subcommandNames)
var command: ParsableCommand
do {
    command = try Navctl.parseAsRoot(arguments)
} catch {
    exit(reportParserError(error))
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
    exit(reportParserError(error))
}
