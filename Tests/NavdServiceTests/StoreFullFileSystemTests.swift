import Foundation
import Testing
import NavdService
import TestSupport

/// The store on a real, full file system: a 384 KiB tmpfs mounted in a private mount namespace.
///
/// SQLite resolves symbolic links, so the tmpfs cannot be reached from this process through
/// `/proc/PID/root`; instead the test runs this very test binary again inside
/// `unshare -m`, with `NAVD_STORE_TMPFS_DIR` naming the mounted directory, and checks that the
/// run passed. Needs root (or CAP_SYS_ADMIN) and util-linux's `unshare`; skipped otherwise.
@Suite(.timeLimit(.minutes(2)))
struct StoreFullFileSystemTests {
    static let directoryVariable = "NAVD_STORE_TMPFS_DIR"
    static let passedMarker = "store tmpfs scenario finished"

    @Test func aFullFileSystemRefusesTheBatchAndRecoversWhenSpaceComesBack() throws {
        if let directory = ProcessInfo.processInfo.environment[Self.directoryVariable] {
            try runScenario(in: directory)
            print(Self.passedMarker)
        } else {
            try runScenarioInPrivateTmpfs()
        }
    }

    /// Spawns this test binary inside a new mount namespace with a small tmpfs.
    func runScenarioInPrivateTmpfs() throws {
        let unshare = "/usr/bin/unshare"
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: unshare) else {
            print("skipped: mounting a tmpfs needs root and \(unshare) (the daemon-level disk-full test covers this)")
            return
        }
        let temporary = try StoreTemporaryDirectory("tmpfs")
        defer { temporary.remove() }
        let mountPoint = temporary.path + "/mnt"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        let child = try ChildProcess(
            launching: unshare,
            arguments: [
                "-m", "--propagation", "private", "sh", "-c",
                "mount -t tmpfs -o size=384k navd-test \"$\(Self.directoryVariable)\" || exit 97; exec \"$@\"",
                "sh", try testBinaryPath(), "--testing-library", "swift-testing",
                "--filter", "aFullFileSystemRefusesTheBatchAndRecoversWhenSpaceComesBack",
            ],
            environment: [Self.directoryVariable: mountPoint])
        let status = child.waitForExit(timeout: 60) ?? child.stop(with: SIGKILL)
        let log = child.stdoutText + child.stderrText
        if status == 97 {
            print("skipped: cannot mount a tmpfs in a private namespace here:\n\(log)")
            return
        }
        #expect(status == 0, "the scenario inside the namespace failed:\n\(log)")
        #expect(log.contains(Self.passedMarker), "the scenario did not run:\n\(log)")
        for line in log.split(separator: "\n") where line.hasPrefix("tmpfs:") { print(line) }
    }

    /// The path of the running test binary.
    func testBinaryPath() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// Fills the file system under `directory`, checks the refusal, frees space, checks recovery.
    func runScenario(in directory: String) throws {
        let filler = directory + "/filler"
        #expect(FileManager.default.createFile(atPath: filler, contents: Data(count: 96 * 1_024)))
        let stateDirectory = directory + "/state"
        let store = try StateStore(directory: stateDirectory, durability: .normal)
        defer { store.close() }
        let (revision, failure) = appendUntilRefused(store, from: 1, count: 1, payloadSize: 2_000, limit: 2_000)
        let error = try #require(failure, "the tmpfs never filled up")
        print("tmpfs: refused after \(revision - 1) appends: \(error.message)")
        #expect(error.kind == .writeFailed)
        #expect(error.message.contains("full"))
        #expect(try store.load().journal.map(\.revision) == Array(1..<revision), "the refused append left nothing")

        try FileManager.default.removeItem(atPath: filler)
        try store.append(storeRecords(from: revision, count: 4, payloadSize: 2_000))
        let reopened = try StateStore(directory: stateDirectory, durability: .normal)
        defer { reopened.close() }
        #expect(try reopened.load().journal.map(\.revision) == Array(1...(revision + 3)))
        print("tmpfs: after freeing space, 4 more appends were stored and a new connection reads all \(revision + 3)")
    }
}
