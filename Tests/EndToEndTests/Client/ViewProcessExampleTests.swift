import Foundation
import Glibc
import TestSupport
import Testing
import TestFixtures

/// The Swift example of docs/swift-client.md: the file the target builds is the document's block,
/// character for character, and the built example does against a real navd what the document says.
@Suite("the documented view process", .timeLimit(.minutes(2)))
struct ViewProcessExampleTests {
    static let repository = URL(fileURLWithPath: Fixture.repository)
    static let examplePath = "Examples/view-process/ViewProcess.swift"

    @Test func theDocumentShowsTheExampleFileAsItIs() throws {
        let source = try String(contentsOf: Self.repository.appendingPathComponent(Self.examplePath), encoding: .utf8)
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("docs/swift-client.md"), encoding: .utf8)
        #expect(source.split(separator: "\n").count <= 30, "the example should stay short")
        #expect(readme.contains("```swift\n" + source + "```\n"), "docs/swift-client.md's swift block differs from \(Self.examplePath)")
    }

    @Test(.enabled(if: EndToEnd.navdAvailable && Products.exists("navd-view-example")))
    func theExampleShowsStatesAndPushesWhatIsTyped() throws {
        let fixture = try NavdOnPrivateBus()
        // The example reads its input from a FIFO that this test holds open for reading and writing
        // (close-on-exec, so no process another test starts meanwhile inherits it): the example's open
        // does not wait for a writer, and closing it is the end of the example's input. Started with
        // posix_spawn, not Foundation's Process, which leaks under LeakSanitizer (make check-long).
        let directory = TemporaryDirectory.make("navd-view-example")
        defer { TemporaryDirectory.remove(directory) }
        let inputPath = directory + "/stdin", outputPath = directory + "/stdout"
        try #require(mkfifo(inputPath, 0o600) == 0)
        var input = open(inputPath, O_RDWR | O_CLOEXEC)
        try #require(input >= 0)
        defer { if input >= 0 { close(input) } }
        let pid = try Spawn.start(
            Products.url("navd-view-example"), [],
            environment: ProcessInfo.processInfo.environment.merging(fixture.bus.environment) { $1 },
            input: inputPath, output: outputPath)
        var status: Int32?
        func isRunning() -> Bool {
            if status == nil { status = Spawn.reap(pid) }
            return status == nil
        }
        defer { if isRunning() { kill(pid, SIGKILL); Spawn.waitForExit(pid) } }
        func type(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            #expect(write(input, bytes, bytes.count) == bytes.count)
        }
        func lines(_ count: Int) -> [String] {
            let deadline = Date().addingTimeInterval(20)
            while true {
                let lines = (FileText.read(outputPath) ?? "").split(separator: "\n").map(String.init)
                if lines.count >= count || Date() >= deadline || !isRunning() { return lines }
                usleep(10_000)
            }
        }
        #expect(lines(1) == ["showing red at revision 1"])
        type("orange")
        #expect(lines(2).last == "showing orange at revision 2")
        type("pink")
        #expect(lines(3).last == "refused pink: UnknownRoute")
        close(input)
        input = -1
        let deadline = Date().addingTimeInterval(20)
        while isRunning(), Date() < deadline { usleep(10_000) }
        #expect(!isRunning(), "the example did not exit at the end of its input")
        #expect(status == nil || status == 0)
        #expect(lines(3) == ["showing red at revision 1", "showing orange at revision 2", "refused pink: UnknownRoute"])
        #expect(try fixture.client().send(.getState).path.map(\.route) == ["red", "orange"])
    }
}
