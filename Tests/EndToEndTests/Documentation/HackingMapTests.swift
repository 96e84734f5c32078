import Foundation
import TestFixtures
import Testing

/// HACKING.md's map of the tree keeps up with it: every folder of Sources/ is named there, with its job.
@Suite("HACKING.md's map")
struct HackingMapTests {
    /// The words of HACKING.md's Layout block that name a folder (`NavdService/`), without the slash.
    static func mappedFolders() throws -> Set<String> {
        let hacking = try String(contentsOfFile: Fixture.repository + "/HACKING.md", encoding: .utf8)
        guard let layout = hacking.range(of: "## Layout"),
              let open = hacking.range(of: "```\n", range: layout.upperBound..<hacking.endIndex),
              let close = hacking.range(of: "\n```", range: open.upperBound..<hacking.endIndex)
        else { return [] }
        let words = hacking[open.upperBound..<close.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" })
        return Set(words.filter { $0.hasSuffix("/") }.map { String($0.dropLast()) })
    }

    @Test("every folder of Sources/ has its line in HACKING.md's Layout")
    func everySourceFolderIsMapped() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Fixture.repository + "/Sources")
            .filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: Fixture.repository + "/Sources/" + name, isDirectory: &isFolder) && isFolder.boolValue
            }
        #expect(folders.count > 20, "Sources/ read as \(folders)")
        let mapped = try Self.mappedFolders()
        let missing = folders.filter { !mapped.contains($0) }.sorted()
        #expect(missing.isEmpty, "Sources/ folders without a line in HACKING.md's Layout (add one saying what each is for): \(missing)")
    }

    /// HACKING.md draws the path of a call in at most eight numbered steps, and every source file it names is there.
    @Test("the path of a call has at most eight steps, naming files that exist")
    func thePathOfACallNamesFilesThatExist() throws {
        let hacking = try String(contentsOfFile: Fixture.repository + "/HACKING.md", encoding: .utf8)
        let start = try #require(hacking.range(of: "The path of a call"))
        let end = try #require(hacking.range(of: "\n\n`org.navd.Navigator1` is declared once", range: start.upperBound..<hacking.endIndex))
        let section = hacking[start.lowerBound..<end.lowerBound]
        let steps = section.split(separator: "\n").filter { line in
            guard let dot = line.firstIndex(of: ".") else { return false }
            return !line[..<dot].isEmpty && line[..<dot].allSatisfy(\.isNumber)
        }
        #expect((1...8).contains(steps.count), "\(steps.count) steps")
        let named = section.split(separator: "`").map { String($0.split(separator: "/").last ?? "") }.filter { $0.hasSuffix(".swift") }
        #expect(named.count >= 8, "only \(named.count) files named: \(named)")
        let sources = FileManager.default.enumerator(atPath: Fixture.repository + "/Sources")
        var present = Set<String>()
        while let path = sources?.nextObject() as? String { present.insert(String(path.split(separator: "/").last ?? "")) }
        let missing = named.filter { !present.contains($0) }
        #expect(missing.isEmpty, "HACKING.md's path of a call names files that are not in Sources/: \(missing)")
    }
}
