import DBus
import Foundation
import NavigatorProtocol
import SQLite
import Testing
import TestSupport

/// A journal row that cannot be read stops the replay, not navd (`docs/durability.md#damaged-journal-rows`): navd starts,
/// logs the revision and the reason, serves, keeps the row and those after it aside in the file,
/// and numbers the next change above every revision it ever stored. Before, the state stopped at
/// the row and every change after was answered `StorageFailed` (the next revision was already
/// stored).
@Suite("navd damaged journal row", .serialized, .timeLimit(.minutes(2)), .enabled(if: EndToEnd.navdAvailable))
struct NavdDamagedJournalRowTests {
    /// `(revision, reason)` of each row kept aside in the state file `file`.
    func asideRows(_ file: String) throws -> [(revision: Int64, reason: String)] {
        let db = try Database(path: file, flags: [.readOnly])
        defer { db.close() }
        return try db.collect("SELECT revision, reason FROM journal_aside ORDER BY revision") { ($0.int64(at: 0), $0.text(at: 1)) }
    }

    @Test func aRowWithAGarbledPayloadIsSetAsideAndNavdGoesOnAboveIt() throws {
        let fixture = try NavdOnPrivateBus.withFreshStateDirectory()
        let (navd, file) = (fixture.navd, fixture.stateFile)
        let client = try Connection(.address(fixture.bus.address))
        for route in ["orange", "yellow", "green"] {
            _ = try client.navigator("Push", [.string(route), .emptyParams])
        }
        #expect(try client.navigatorState().revision == 4)
        // Killed, so that revisions 2…4 are journal rows; then revision 3's payload is garbled.
        navd.kill9()
        do {
            let db = try Database(path: file)
            defer { db.close() }
            try db.exec("UPDATE journal SET payload = X'DEADBEEF00' WHERE revision = 3")
            #expect(db.changes == 1, "revision 3 is a journal row")
        }

        try navd.start()
        let errors = navd.stderr.split(separator: "\n").filter { $0.hasPrefix("navd: error: ") }
        #expect(errors.count == 1 && errors[0].contains("revision 3") && errors[0].contains("journal_aside"), "\(navd.stderr)")
        let restored = try client.navigatorState()
        #expect(restored.path.map(\.route) == ["red", "orange"], "the state stops at the last good row")
        #expect(restored.revision == 4, "revisions go on past every stored one")
        let next = try client.navigator("Push", [.string("blue"), .emptyParams])[0].uint64Value
        #expect(next == 5, "the next change is accepted above revision 4")
        #expect(navd.stop() == 0)

        let aside = try asideRows(file)
        #expect(aside.map(\.revision) == [3, 4], "the garbled row and the one after it are kept aside")
        #expect(aside.allSatisfy { !$0.reason.isEmpty })

        try navd.start()
        #expect(!navd.stderr.contains("navd: error:") && !navd.stderr.contains("navd: warning:"), "a second restart is clean: \(navd.stderr)")
        let again = try client.navigatorState()
        #expect(again.revision == 5 && again.path.map(\.route) == ["red", "orange", "blue"])
        #expect(try client.navigator("Push", [.string("teal"), .emptyParams])[0].uint64Value == 6)
    }
}
