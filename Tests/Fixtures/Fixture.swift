import Foundation

/// The route files the tests share, each written once as a file under `Tests/Fixtures/` (`apps/`: the
/// apps of the end-to-end tests, which the shell tests in `Tests/Scripts/` copy too; `routes/`: graphs
/// of the model's tests; `dbus/`: the bus configuration of `Tests/Scripts/system-policy-test.sh`), and the
/// repository they are read from.
public enum Fixture {
    /// The top of the repository, found from this file's place in it (`Tests/Fixtures/Fixture.swift`).
    public static let repository: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `Tests/Fixtures/`.
    public static let directory = repository + "/Tests/Fixtures"

    /// The text of the fixture at `path` below `Tests/Fixtures/` (`apps/shop.yaml`). A fixture that
    /// cannot be read stops the run naming its path: every test that uses it would fail anyway.
    public static func text(_ path: String) -> String {
        do {
            return try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
        } catch {
            fatalError("the test fixture \(directory)/\(path) cannot be read: \(error)")
        }
    }

    /// The app `name`'s route file (`apps/NAME.yaml`).
    public static func app(_ name: String) -> String { text("apps/\(name).yaml") }
}
