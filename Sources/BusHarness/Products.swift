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

    /// The path of the built executable `name` (`navd`, `navctl`, `navwatch`, …).
    public static func url(_ name: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// Whether `name` has been built, so a test can skip with a reason when it has not.
    public static func exists(_ name: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: url(name))
    }
}
