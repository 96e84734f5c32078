import Foundation
import Testing
@testable import NavdService

/// State folders are 0700 and state files 0600 whatever the umask; looser ones found at start
/// are tightened, and said so.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct StorePrivateFilesTests {
    /// Runs `body` with the process' umask set to `mask`, then puts the old one back.
    func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
        let old = umask(mask)
        defer { umask(old) }
        return try body()
    }

    @Test func underUmask022EveryFolderAndFileIsPrivate() throws {
        let temporary = try StoreTemporaryDirectory("umask")
        defer { temporary.remove() }
        let directory = temporary.stateDirectory + "/nested/deeper"
        try withUmask(0o022) {
            let store = try StateStore(directory: directory, durability: .normal)
            defer { store.close() }
            #expect(store.notices.isEmpty, "nothing was loose: \(store.notices)")
            let lock = try StateLock(directory: directory)
            try store.append(storeRecords(from: 1, count: 3))
            for folder in [temporary.stateDirectory, temporary.stateDirectory + "/nested", directory] {
                #expect(storeFileMode(folder) == 0o700, "\(folder)")
            }
            // Not exclusive, so SQLite makes its shared-memory index too.
            for name in ["navd.sqlite3", "navd.sqlite3-wal", "navd.sqlite3-shm", "navd.lock"] {
                #expect(storeFileMode(directory + "/" + name) == 0o600, "\(name): \(String(storeFileMode(directory + "/" + name), radix: 8))")
            }
            _ = lock
        }
    }

    @Test func looserFoldersAndFilesAreTightenedAndReported() throws {
        let temporary = try StoreTemporaryDirectory("tighten")
        defer { temporary.remove() }
        let state = temporary.stateDirectory
        let app = state + "/apps/shop"
        for directory in [state, app] {
            let store = try StateStore(directory: directory, durability: .normal)
            try store.append(storeRecords(from: 1, count: 2))
            store.close()
        }
        #expect(FileManager.default.createFile(atPath: state + "/navd.lock", contents: Data("1\n".utf8)))
        #expect(FileManager.default.createFile(atPath: state + "/notes.txt", contents: Data("mine".utf8)))
        let loose: [(String, mode_t)] = [
            (state, 0o755), (state + "/navd.sqlite3", 0o644), (state + "/navd.lock", 0o666), (state + "/apps", 0o775),
            (app, 0o750), (app + "/navd.sqlite3", 0o640), (state + "/notes.txt", 0o644),
        ]
        for (path, mode) in loose { #expect(chmod(path, mode) == 0) }

        let store = try StateStore(directory: state, durability: .normal)
        defer { store.close() }
        print(store.notices.joined(separator: "\n"))
        let expected: [(String, mode_t)] = [
            (state, 0o700), (state + "/navd.sqlite3", 0o600), (state + "/navd.lock", 0o600), (state + "/apps", 0o700),
            (app, 0o700), (app + "/navd.sqlite3", 0o600),
        ]
        for (path, mode) in expected {
            #expect(storeFileMode(path) == mode, "\(path) is \(String(storeFileMode(path), radix: 8))")
            #expect(store.notices.contains { $0.contains(path + " ") && $0.contains("now 0" + String(mode, radix: 8)) }, "\(path) reported")
        }
        #expect(store.notices.count == expected.count)
        #expect(storeFileMode(state + "/notes.txt") == 0o644, "a file navd does not own is left alone")
        #expect(try store.load().journal.count == 2)

        let again = try StateDirectory.prepare(state)
        #expect(again.isEmpty, "nothing left to tighten: \(again)")
    }

    @Test func aStateDirectoryThatIsAFileIsRefused() throws {
        let temporary = try StoreTemporaryDirectory("notdir")
        defer { temporary.remove() }
        #expect(FileManager.default.createFile(atPath: temporary.stateDirectory, contents: Data("x".utf8)))
        let error = #expect(throws: StoreError.self) {
            _ = try StateStore(directory: temporary.stateDirectory, durability: .normal)
        }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.message.contains("exists but is not a directory") == true)
    }
}
