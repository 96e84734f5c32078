import Foundation
import FuzzTargets
import TestFixtures
import Testing

/// Every checked-in input of every fuzz target (Tests/Fuzz/<target>/corpus, and the inputs that once failed,
/// Tests/Fuzz/<target>/regressions) run through the target's body without libFuzzer, as systemd's fuzz-main
/// does: a crash fails the run, a broken property fails the test naming the file.
@Suite struct FuzzCorpusTests {
    /// The files of `folder` (none when it does not exist), sorted.
    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    @Test(arguments: FuzzTarget.allCases)
    func corpusAndRegressionsHold(_ target: FuzzTarget) throws {
        let root = Fixture.repository + "/Tests/Fuzz/" + target.rawValue
        let corpus = Self.files(root + "/corpus")
        #expect(!corpus.isEmpty, "no corpus for \(target.rawValue) under \(root)")
        for file in corpus + Self.files(root + "/regressions") {
            let data = try #require(FileManager.default.contents(atPath: file), "cannot read \(file)")
            if let violation = data.withUnsafeBytes({ target.violation($0) }) {
                Issue.record("\(file): \(violation)")
            }
        }
    }
}
