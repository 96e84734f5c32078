#if canImport(Glibc)
import Glibc
#endif
import NavctlCommandLine
import NavdCommandLine
import NavwatchCommandLine

// One executable for the three commands, chosen by the name it is called by (busybox-style): `make install`
// and the package install navctl and navwatch as links to navd (scripts/install.sh). Any other name runs
// navd, so the D-Bus activation files and the units, which name navd, start the service whatever the path.
let arguments = Array(CommandLine.arguments.dropFirst())
switch CommandLine.arguments.first.map(commandName) ?? "navd" {
case "navctl": navctlMain(arguments)
case "navwatch": navwatchMain(arguments)
default: navdMain(arguments)
}

/// The last component of the path the command was started by (`/usr/bin/navctl` → `navctl`).
func commandName(_ path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
}
