import Foundation

/// Where the package's built executables are, for tests that run them as processes.
public enum Products {
    /// The build directory holding the test bundle and the executables (such as
    /// `.build/x86_64-unknown-linux-gnu/debug`). `NAVD_PRODUCTS_DIR` overrides it.
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["NAVD_PRODUCTS_DIR"], !override.isEmpty {
            return override
        }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var directory = (executable as NSString).deletingLastPathComponent
            // On Linux the test binary is `<Package>PackageTests.xctest` in the build
            // directory; step out of a bundle directory should there be one.
            while directory.hasSuffix(".xctest") || directory.contains(".xctest/") {
                directory = (directory as NSString).deletingLastPathComponent
            }
            return directory
        }
        return (Bundle.main.bundlePath as NSString).deletingLastPathComponent
    }

    /// The commands that are links to navd's one executable, which runs the command it is called by
    /// (Sources/navd/main.swift): as `make install` installs them (scripts/link-commands.sh).
    public static let linkedCommands = ["navctl", "navwatch"]

    /// The path of the built executable `name` (`navd`, `navctl`, `navwatch`, …). For navctl and navwatch,
    /// a link to navd beside it, made here when it is missing (or is a stale binary of an older build), so that
    /// tests and the benchmark run the commands as an installed system does.
    public static func url(_ name: String) -> String {
        if linkedCommands.contains(name) { linkCommands(in: directory) }
        return (directory as NSString).appendingPathComponent(name)
    }

    /// Makes navctl and navwatch in `directory` links to the navd there, unless they already are.
    public static func linkCommands(in directory: String) {
        let files = FileManager.default
        for name in linkedCommands {
            let path = (directory as NSString).appendingPathComponent(name)
            if (try? files.destinationOfSymbolicLink(atPath: path)) == "navd" { continue }
            try? files.removeItem(atPath: path)
            // Another process may have made it in between: an existing link is as good.
            try? files.createSymbolicLink(atPath: path, withDestinationPath: "navd")
        }
    }

    /// Whether `name` has been built, so a test can skip with a reason when it has not.
    public static func exists(_ name: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: url(name))
    }
}
