import Foundation
import GRDB

/// Opening the state file: the directory, the checks that keep navd from touching a file it
/// does not understand, the pragmas and the schema.
extension StateStore {
    /// Every SQLite database file starts with these 16 bytes.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)
    /// Pages after which SQLite copies the write-ahead log back into the database (SQLite's
    /// default): about 4 MiB of log, one checkpoint (two fsyncs) per few hundred commits.
    static let checkpointPages = 1_000
    /// The log is truncated back to this size after a checkpoint, so it stays bounded.
    static let logSizeLimit = 4 * 1_024 * 1_024

    /// What an existing database file holds, as far as navd is concerned.
    enum FileShape: Equatable {
        /// No tables and no application id: a new (or empty) database navd may set up.
        case empty
        /// A navd database of this schema version.
        case navd(schema: Int)
        /// Something else, for the reason given.
        case foreign(String)
    }

    /// Creates `directory` and its missing parents with mode 0700 (the state is private).
    static func createDirectory(_ directory: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StoreError(.cannotOpen, "navd state directory \(directory) exists but is not a directory; "
                    + "move it away or choose another state directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(.cannotOpen, "cannot create navd state directory \(directory): "
                + "\(error.localizedDescription); create it yourself or choose another state directory")
        }
    }

    /// Refuses, without writing a byte, a file that is not a readable navd database of this
    /// schema version. A missing or empty file passes: navd creates the database.
    static func validateExistingFile(at path: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError(.cannotOpen, "cannot read navd state file \(path) (permission denied?); "
                + "fix its permissions or choose another state directory")
        }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        try? handle.close()
        if header.isEmpty { return }
        guard header.count == 100, header.prefix(16).elementsEqual(sqliteHeader) else {
            throw unreadable(path, "it is not an SQLite database (wrong header)")
        }
        // Checked in a read-only connection: it can neither roll anything back nor checkpoint
        // the log into the file, so a refused file keeps every byte.
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "navd.state.check"
        let shape: FileShape
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            shape = try queue.inDatabase { db in
                let shape = try inspect(db)
                if shape == .navd(schema: schemaVersion) {
                    let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                    if problems != ["ok"] {
                        return .foreign("it is corrupt (SQLite's quick_check: \(problems.prefix(3).joined(separator: "; ")))")
                    }
                }
                return shape
            }
        } catch {
            throw unreadable(path, "SQLite cannot read it: \(describe(error))")
        }
        switch shape {
        case .empty:
            return
        case .foreign(let reason):
            throw unreadable(path, reason)
        case .navd(let schema) where schema > schemaVersion:
            throw StoreError(.newerSchema, "navd state file \(path) was written by a newer navd "
                + "(schema \(schema), this navd reads \(schemaVersion)); upgrade navd or move the file away")
        case .navd(let schema) where schema < 1:
            throw unreadable(path, "its schema version \(schema) is not one navd ever wrote")
        case .navd:
            return
        }
    }

    /// Classifies the open database `db` without writing to it.
    static func inspect(_ db: Database) throws -> FileShape {
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if tables.isEmpty && application == 0 { return .empty }
        if application != applicationID {
            return .foreign("it is an SQLite database of another program (application id \(application))")
        }
        guard tables.contains("meta") else { return .foreign("it has navd's application id but no meta table") }
        guard let schema = try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'schema_version'") else {
            return .foreign("its meta table has no schema_version")
        }
        if schema == schemaVersion && !tables.isSuperset(of: ["snapshot", "journal"]) {
            return .foreign("it lacks the snapshot or journal table")
        }
        return .navd(schema: schema)
    }

    /// The error for a file navd will not touch.
    static func unreadable(_ path: String, _ reason: String) -> StoreError {
        StoreError(.unreadable, "navd state file \(path) is not a navd state database or is corrupt: \(reason). "
            + "navd left it untouched; move it away (navd then starts with a fresh state) or restore it from a backup")
    }

    /// Opens the validated (or new) file for writing: exclusive locking when asked, WAL, the
    /// durability level, a bounded log, and the schema when the database is new.
    func openForWriting() throws(StoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "navd.state"
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = false
        let synchronous = durability == .full ? "FULL" : "NORMAL"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.inDatabase { db in
                // Before the first access to the file, so that the log's index is never put
                // in shared memory.
                if exclusive { try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                guard mode == "wal" else {
                    throw StoreError(.cannotOpen, "cannot switch navd state file \(path) to WAL mode (it stays in "
                        + "\(mode ?? "?") mode); is the file system a network one? choose a local state directory")
                }
                try db.execute(sql: """
                    PRAGMA synchronous = \(synchronous);
                    PRAGMA journal_size_limit = \(Self.logSizeLimit);
                    PRAGMA wal_autocheckpoint = \(Self.checkpointPages);
                    """)
                switch try Self.inspect(db) {
                case .empty:
                    try Self.createSchema(db)
                case .navd(schema: Self.schemaVersion):
                    break
                case let shape:
                    throw StoreError(.unreadable, "navd state file \(path) changed while navd opened it (\(shape)); "
                        + "make sure no other program writes to it, then start navd again")
                }
            }
            return queue
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "cannot open navd state file \(path) for writing: \(Self.describe(error)); "
                + "check the directory's permissions and free space, or choose another state directory")
        }
    }

    /// Creates schema version 1 in one transaction.
    static func createSchema(_ db: Database) throws {
        try inImmediateTransaction(db) {
            try db.execute(sql: """
                PRAGMA application_id = \(applicationID);
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value NOT NULL) WITHOUT ROWID;
                INSERT INTO meta (key, value) VALUES ('schema_version', \(schemaVersion)), ('written_by', 'navd');
                CREATE TABLE snapshot (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    revision INTEGER NOT NULL,
                    document BLOB NOT NULL
                );
                CREATE TABLE journal (revision INTEGER PRIMARY KEY NOT NULL, payload BLOB NOT NULL);
                """)
        }
    }
}
