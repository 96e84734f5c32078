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

    private static var configHome: String { environment("XDG_CONFIG_HOME") ?? home + "/.config" }

    /// `path` made absolute against the working directory (unchanged when it already is, or when the
    /// working directory cannot be read).
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        let base = String(cString: directory)
        return (base.hasSuffix("/") ? base : base + "/") + path
    }

    /// `$XDG_CONFIG_HOME/navd/routes.yaml` (or `.yml`) when it exists; `/etc/navd/routes.yaml` for the
    /// system bus.
    static func defaultRouteFile(system: Bool = false) -> String? {
        for name in ["routes.yaml", "routes.yml"] {
            let path = (system ? "/etc" : configHome) + "/navd/" + name
            if access(path, F_OK) == 0 { return path }
        }
        return nil
    }

    /// The apps folder: `$XDG_CONFIG_HOME/navd/apps` (`~/.config/navd/apps`), `/etc/navd/apps` for
    /// the system bus.
    static func defaultAppsDirectory(system: Bool) -> String {
        system ? "/etc/navd/apps" : configHome + "/navd/apps"
    }

    /// `$XDG_STATE_HOME/navd`, else `~/.local/state/navd`; `$STATE_DIRECTORY` (systemd's) when set;
    /// `/var/lib/navd` for the system bus.
    static func defaultStateDirectory(system: Bool) -> String {
        if let systemd = environment("STATE_DIRECTORY") { return systemd }
        if system { return "/var/lib/navd" }
        return (environment("XDG_STATE_HOME") ?? home + "/.local/state") + "/navd"
    }
}
