import SQLite

#if canImport(Glibc)
import Glibc
#endif

/// Opening the state file: the checks that keep navd from touching a file it does not
/// understand, the pragmas, and the schema.
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

    /// Refuses, without writing a byte, a file that is not a readable navd database of this or
    /// an older schema version. A missing or empty file passes: navd creates the database.
    static func validateExistingFile(at path: String) throws(StoreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT { return }
        guard fd >= 0 else {
            throw StoreError(.cannotOpen, "cannot read navd state file \(path) (\(StateDirectory.errorText())); "
                + "fix its permissions or choose another state directory")
        }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 100, 0) }
        Glibc.close(fd)
        if count == 0 { return }
        guard count == 100, header.prefix(16).elementsEqual(sqliteHeader) else {
            throw unreadable(path, "it is not an SQLite database (wrong header)")
        }
        // Checked in a read-only connection: it can neither roll anything back nor checkpoint
        // the log into the file, so a refused file keeps every byte.
        let shape: FileShape
        do {
            let db = try Database(path: path, flags: [.readOnly, .noMutex])
            defer { db.close() }
            var found = try inspect(db)
            if case .navd(let schema) = found, schema >= 1 && schema <= schemaVersion {
                let problems = try db.collect("PRAGMA quick_check") { $0.text(at: 0) }
                if problems != ["ok"] {
                    found = .foreign("it is corrupt (SQLite's quick_check: \(problems.prefix(3).joined(separator: "; ")))")
                }
            }
            shape = found
        } catch {
            throw unreadable(path, "SQLite cannot read it: \(error)")
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
    static func inspect(_ db: Database) throws(SQLiteError) -> FileShape {
        let tables = Set(try db.collect("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(at: 0) })
        let application = try db.firstRow("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64(at: 0)) } ?? 0
        if tables.isEmpty && application == 0 { return .empty }
        if application != applicationID {
            return .foreign("it is an SQLite database of another program (application id \(application))")
        }
        guard tables.contains("meta") else { return .foreign("it has navd's application id but no meta table") }
        let version = try db.firstRow("SELECT value FROM meta WHERE key = 'schema_version'") { row in
            row.isNull(at: 0) ? nil : Int(row.int64(at: 0))
        }
        guard let schema = version ?? nil else { return .foreign("its meta table has no schema_version") }
        if let required = tablesOfSchema[schema], !tables.isSuperset(of: required) {
            return .foreign("it lacks one of the tables of schema \(schema) (\(required.sorted().joined(separator: ", ")))")
        }
        return .navd(schema: schema)
    }

    /// The error for a file navd will not touch.
    static func unreadable(_ path: String, _ reason: String) -> StoreError {
        StoreError(.unreadable, "navd state file \(path) is not a navd state database or is corrupt: \(reason). "
            + "navd left it untouched; move it away (navd then starts with a fresh state) or restore it from a backup")
    }

    /// Opens the validated (or new) file for writing: exclusive locking when asked, WAL, the
    /// durability level, a bounded log, and the schema when the database is new or older.
    /// Returns the connection and, when it migrated the file, a sentence saying so.
    func openForWriting() throws(StoreError) -> (Database, String?) {
        let db: Database
        do {
            db = try Database(path: path, flags: [.readWrite, .create, .noMutex])
        } catch {
            throw cannotOpen(error)
        }
        do {
            // Before the first access to the file, so that the log's index is never put in
            // shared memory.
            if exclusive { try db.exec("PRAGMA locking_mode = EXCLUSIVE") }
            // Before the first page is written: a new file can give its free pages back
            // (`incrementalVacuum()`); on an existing file, which was made without, this changes nothing.
            try db.exec("PRAGMA auto_vacuum = INCREMENTAL")
            let mode = try db.firstRow("PRAGMA journal_mode = WAL") { $0.text(at: 0) }
            guard mode == "wal" else {
                db.close()
                throw StoreError(.cannotOpen, "cannot switch navd state file \(path) to WAL mode (it stays in "
                    + "\(mode ?? "?") mode); is the file system a network one? choose a local state directory")
            }
            // secure_delete FAST (Debian's SQLite defaults to ON): a compaction frees the old
            // snapshot's and the journal's overflow pages without writing them out as zeros, so it
            // writes about one snapshot to the log instead of three (the file is private anyway).
            try db.exec("""
                PRAGMA secure_delete = FAST;
                PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL");
                PRAGMA journal_size_limit = \(Self.logSizeLimit);
                PRAGMA wal_autocheckpoint = \(Self.checkpointPages);
                """)
            let migrated = try setUpSchema(db)
            return (db, migrated)
        } catch let error as StoreError {
            db.close()
            throw error
        } catch let error as SQLiteError {
            db.close()
            throw cannotOpen(error)
        } catch {
            db.close()
            throw StoreError(.cannotOpen, "cannot open navd state file \(path) for writing: \(error)")
        }
    }

    /// Creates the schema in a new file or migrates an older one, in one transaction; returns
    /// a sentence when it migrated.
    private func setUpSchema(_ db: Database) throws -> String? {
        let shape = try db.transaction(.immediate) { () throws(SQLiteError) -> FileShape in
            // Inspected inside the transaction: nobody can change the file between the look and the change.
            let shape = try Self.inspect(db)
            switch shape {
            case .empty: try Self.createSchema(db)
            case .navd(let schema) where schema >= 1 && schema < Self.schemaVersion: try Self.migrate(db, from: schema)
            default: break
            }
            return shape
        }
        switch shape {
        case .empty, .navd(schema: Self.schemaVersion):
            return nil
        case .navd(let schema) where schema >= 1 && schema < Self.schemaVersion:
            return "migrated navd state file \(path) from schema \(schema) to \(Self.schemaVersion)"
        default:
            throw StoreError(.unreadable, "navd state file \(path) changed while navd opened it (\(shape)); "
                + "make sure no other program writes to it, then start navd again")
        }
    }

    /// The error for a file that cannot be opened for writing.
    private func cannotOpen(_ error: SQLiteError) -> StoreError {
        StoreError(.cannotOpen, "cannot open navd state file \(path) for writing: \(error); "
            + "check the directory's permissions and free space, or choose another state directory")
    }
}
