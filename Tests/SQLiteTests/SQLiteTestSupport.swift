import Glibc
import SQLite

/// A fresh temporary folder for one test, removed (with what is in it) by `remove()`.
struct ScratchFolder {
    /// The folder's path.
    let path: String

    /// Makes a new, empty folder named after `label`.
    init(_ label: String) {
        var template = Array("/tmp/navd-sqlite-\(label)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// A database file's path inside the folder.
    var databaseFile: String { path + "/test.sqlite3" }

    /// Deletes the folder's files (tests make no subfolders) and the folder.
    func remove() {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

/// Runs `body` on a new database in a fresh folder, then closes and removes both.
func withScratchDatabase(_ label: String, _ body: (Database, ScratchFolder) throws -> Void) throws {
    let folder = ScratchFolder(label)
    defer { folder.remove() }
    let db = try Database(path: folder.databaseFile)
    defer { db.close() }
    try body(db, folder)
}
