#if canImport(Glibc)
import Glibc
#endif

/// navd's whole run, as the `navd` executable (Sources/navd/main.swift) starts it when called by any name
/// but navctl's and navwatch's. `arguments` excludes the command's own name.
public func navdMain(_ arguments: [String]) -> Never {
    NavdCommand.start(arguments)
    exit(0)
}
