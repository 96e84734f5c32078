import SQLite

/// The schema: version 1 as navd first wrote it, and each migration after it. A new file is
/// made by version 1's statements followed by every migration, so a new file and a migrated one
/// are alike to the byte of their schema.
extension StateStore {
    /// The tables a file of each schema version must have.
    static let tablesOfSchema: [Int: Set<String>] = [
        1: ["meta", "snapshot", "journal"],
        2: ["meta", "snapshot", "journal", "graph", "journal_aside"],
        3: ["meta", "snapshot", "journal", "graph", "journal_aside", "graph_text"],
        4: ["meta", "snapshot", "journal", "graph", "journal_aside", "graph_text", "history_segment"],
    ]

    /// Schema version 1: the metadata, the one snapshot, the journal after it.
    static let firstSchema = """
        PRAGMA application_id = \(applicationID);
        CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value NOT NULL) WITHOUT ROWID;
        INSERT INTO meta (key, value) VALUES ('schema_version', 1), ('written_by', 'navd');
        CREATE TABLE snapshot (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            revision INTEGER NOT NULL,
            document BLOB NOT NULL
        );
        CREATE TABLE journal (revision INTEGER PRIMARY KEY NOT NULL, payload BLOB NOT NULL);
        """

    /// The statements that take a file from the version of the key to the next one.
    ///
    /// 1 → 2: the id counter of the snapshot and of every row (0 for rows written before); the
    /// graph the snapshot was written under (`origin`: "demo" or the route file's path,
    /// `source`: its bytes, `limit_overrides`: the command line's, canonical); and the rows
    /// kept aside, with their own rowid so that a revision can be set aside more than once.
    /// `ADD COLUMN` with a default rewrites no row, so migrating a large file is quick.
    static let migrations: [Int: String] = [
        1: """
            ALTER TABLE snapshot ADD COLUMN next_id INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE journal ADD COLUMN next_id INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE graph (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                origin TEXT NOT NULL,
                source BLOB NOT NULL,
                limit_overrides TEXT NOT NULL
            );
            CREATE TABLE journal_aside (
                id INTEGER PRIMARY KEY,
                revision INTEGER NOT NULL,
                next_id INTEGER NOT NULL,
                payload BLOB NOT NULL,
                reason TEXT NOT NULL,
                time INTEGER NOT NULL -- seconds since 1970-01-01 UTC
            );
            UPDATE meta SET value = 2 WHERE key = 'schema_version';
            """,
        // 2 → 3: the route graph of each graph generation the kept changes were answered under (Export,
        // StateStore+GraphTexts.swift), written once per generation.
        2: """
            CREATE TABLE graph_text (
                generation INTEGER PRIMARY KEY NOT NULL,
                origin TEXT NOT NULL,
                source BLOB NOT NULL,
                limit_overrides TEXT NOT NULL
            );
            UPDATE meta SET value = 3 WHERE key = 'schema_version';
            """,
        // 3 → 4: the kept steps written apart from the snapshot, a segment per snapshot holding the steps made
        // since the one before (`newest`: the revision of its newest step), so that a
        // snapshot writes only what changed (docs/durability.md).
        3: """
            CREATE TABLE history_segment (
                newest INTEGER PRIMARY KEY NOT NULL,
                document BLOB NOT NULL
            );
            UPDATE meta SET value = 4 WHERE key = 'schema_version';
            """,
    ]

    /// Creates the current schema in an empty database; the caller holds the transaction.
    static func createSchema(_ db: Database) throws(SQLiteError) {
        try db.exec(firstSchema)
        try migrate(db, from: 1)
    }

    /// Takes the database from `schema` to the current version; the caller holds the
    /// transaction, so a failure leaves the file as it was.
    static func migrate(_ db: Database, from schema: Int) throws(SQLiteError) {
        for version in schema..<schemaVersion {
            guard let statements = migrations[version] else {
                throw SQLiteError.error("no migration from schema \(version) (a bug in navd)")
            }
            try db.exec(statements)
        }
    }
}
