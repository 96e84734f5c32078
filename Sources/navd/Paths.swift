#if canImport(Glibc)
import Glibc
#endif

/// Where navd looks for its route file and keeps its state, per the XDG base directory spec.
enum Paths {
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let string = String(cString: value)
        return string.isEmpty ? nil : string
    }

    private static var home: String { environment("HOME") ?? "/" }

    /// `$XDG_CONFIG_HOME/navd/routes.yaml` (or `.yml`) when it exists.
    static func defaultRouteFile() -> String? {
        let base = environment("XDG_CONFIG_HOME") ?? home + "/.config"
        for name in ["routes.yaml", "routes.yml"] {
            let path = base + "/navd/" + name
            if access(path, F_OK) == 0 { return path }
        }
        return nil
    }

    /// `$XDG_STATE_HOME/navd`, else `~/.local/state/navd`; `$STATE_DIRECTORY` (systemd's) when set;
    /// `/var/lib/navd` for the system bus.
    static func defaultStateDirectory(system: Bool) -> String {
        if let systemd = environment("STATE_DIRECTORY") { return systemd }
        if system { return "/var/lib/navd" }
        return (environment("XDG_STATE_HOME") ?? home + "/.local/state") + "/navd"
    }
}
