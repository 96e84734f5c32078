import CSQLite

/// A prepared statement: typed binds (1-based indexes), steps, typed column reads (0-based).
///
/// Not for use by two threads at once, nor after its ``Database`` is closed (calls then throw
/// `SQLITE_MISUSE`). Binds stay until changed or ``clearBindings()``; ``reset()`` keeps them.
public final class Statement {
    /// SQLite's statement; nil once finalized.
    private var pointer: OpaquePointer?
    /// The connection it was prepared on, for error messages.
    private let connection: OpaquePointer

    init(_ pointer: OpaquePointer, connection: OpaquePointer) {
        self.pointer = pointer
        self.connection = connection
    }

    deinit {
        finalize()
    }

    /// Frees SQLite's statement; later calls throw `SQLITE_MISUSE`.
    func finalize() {
        guard let pointer else { return }
        self.pointer = nil
        sqlite3_finalize(pointer)
    }

    /// The statement, or the error for a finalized one.
    private func live() throws(SQLiteError) -> OpaquePointer {
        guard let pointer else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the statement was finalized (its database is closed)")
        }
        return pointer
    }

    /// Turns a bind's result into an error naming the parameter.
    private func check(_ result: Int32, _ index: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else {
            let error = SQLiteError.last(connection, result: result)
            throw SQLiteError(code: error.code, message: "\(error.message) (parameter \(index))")
        }
    }

    // MARK: Binding

    /// Binds `value` to parameter `index`.
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(try live(), index, value), index)
    }

    /// Binds `text` (UTF-8, copied by SQLite) to parameter `index`.
    public func bind(_ text: String, at index: Int32) throws(SQLiteError) {
        let pointer = try live()
        var text = text
        let result = text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                // A null pointer would bind NULL: an empty text is a static empty string.
                return sqlite3_bind_text64(pointer, index, "", 0, nil, UInt8(SQLITE_UTF8))
            }
            return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: utf8.count) { characters in
                sqlite3_bind_text64(
                    pointer, index, characters, sqlite3_uint64(utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(result, index)
    }

    /// Binds `bytes` (copied by SQLite) to parameter `index`; an empty array is an empty blob,
    /// not NULL.
    public func bind(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let pointer = try live()
        let result = bytes.withUnsafeBytes { buffer in
            Self.bindBlob(pointer, index, buffer, copying: true)
        }
        try check(result, index)
    }

    /// Binds NULL to parameter `index`.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(try live(), index), index)
    }

    /// Binds `bytes` to parameter `index` without copying them, runs `body` (typically one
    /// ``run()``, during which SQLite copies the value into the row), then binds NULL in their
    /// place, so that SQLite never reads the buffer after `body` returns.
    public func withBlob<R>(
        _ bytes: UnsafeRawBufferPointer, at index: Int32, _ body: () throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        let pointer = try live()
        try check(Self.bindBlob(pointer, index, bytes, copying: false), index)
        defer { sqlite3_bind_null(pointer, index) }
        return try body()
    }

    /// `sqlite3_bind_blob64`, with an empty buffer as a zero-length blob (SQLite reads a null
    /// pointer as NULL).
    private static func bindBlob(
        _ pointer: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawBufferPointer, copying: Bool
    ) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(pointer, index, 0) }
        // nil is SQLITE_STATIC: the caller keeps the buffer alive while it is bound.
        return sqlite3_bind_blob64(pointer, index, base, sqlite3_uint64(bytes.count), copying ? csqlite_transient() : nil)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        guard let pointer else { return }
        sqlite3_clear_bindings(pointer)
    }

    // MARK: Stepping

    /// Steps once: true when a row is ready to read, false when the statement is done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(try live())
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError.last(connection, result: result)
        }
    }

    /// Steps until done (ignoring rows), then resets, so the statement holds no lock afterwards
    /// whether it succeeded or failed.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Makes the statement ready to run again; the binds stay.
    public func reset() {
        guard let pointer else { return }
        sqlite3_reset(pointer)
    }

    /// Every row, read by `read`, then resets.
    public func collect<T>(_ read: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
        defer { reset() }
        var rows: [T] = []
        while try step() { rows.append(try read(self)) }
        return rows
    }

    /// The first row, read by `read` (nil when there is none), then resets.
    public func firstRow<T>(_ read: (Statement) throws(SQLiteError) -> T) throws(SQLiteError) -> T? {
        defer { reset() }
        return try step() ? try read(self) : nil
    }

    // MARK: Reading the current row

    /// Column `index` as a 64-bit integer (0 for NULL).
    public func int64(at index: Int32) -> Int64 {
        guard let pointer else { return 0 }
        return sqlite3_column_int64(pointer, index)
    }

    /// Column `index` as bytes (empty for NULL or an empty blob).
    public func bytes(at index: Int32) -> [UInt8] {
        guard let pointer, let base = sqlite3_column_blob(pointer, index) else { return [] }
        // After the pointer: the length is only right once the value is in blob form.
        let count = Int(sqlite3_column_bytes(pointer, index))
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Column `index` as text (empty for NULL).
    public func text(at index: Int32) -> String {
        guard let pointer, let base = sqlite3_column_text(pointer, index) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, index))
        return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Whether column `index` is NULL.
    public func isNull(at index: Int32) -> Bool {
        guard let pointer else { return true }
        return sqlite3_column_type(pointer, index) == SQLITE_NULL
    }
}
