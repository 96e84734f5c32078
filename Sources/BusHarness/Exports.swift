// What the harness shares with navctl (starting children with a clean signal state, a private
// dbus-daemon, stopping by pid), in a module without Foundation; its users see it through the harness.
@_exported import ChildProcesses
