import CSQLite

/// A failure reported by SQLite: its extended result code and its own message.
///
/// `description` reads `MESSAGE (SQLite code N)`, the form navd's `StorageFailed` errors quote.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite's extended result code (`sqlite3_extended_errcode`), e.g. 1555 for a primary key
    /// clash, 13 for a full database, 8 for a write to a read-only database.
    public let code: Int32
    /// SQLite's message (`sqlite3_errmsg`), or one written here for a failure SQLite did not see.
    public let message: String

    /// The primary result code (the low byte of ``code``), e.g. `SQLITE_CONSTRAINT` for 1555.
    public var primaryCode: Int32 { code & 0xFF }

    /// `MESSAGE (SQLite code N)`.
    public var description: String { "\(message) (SQLite code \(code))" }

    /// An `SQLITE_ERROR` (code 1) with `message`: a failure found by the caller, not by SQLite.
    public static func error(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_ERROR, message: message)
    }

    /// The error `handle` holds after a call that returned `result` (the handle's code when it
    /// has one, else `result`), with SQLite's message for it.
    static func last(_ handle: OpaquePointer?, result: Int32) -> SQLiteError {
        guard let handle else {
            return SQLiteError(code: result, message: String(cString: sqlite3_errstr(result)))
        }
        let code = sqlite3_extended_errcode(handle)
        // A code of 0 means the handle's error was already cleared: the call's own code is the truth.
        let chosen = code == SQLITE_OK ? result : code
        return SQLiteError(code: chosen, message: String(cString: sqlite3_errmsg(handle)))
    }
}
