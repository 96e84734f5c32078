import Foundation
import Glibc
import TestSupport
import Testing

/// The README's Swift example: the file the target builds is the README's block, character for
/// character, and the built example does against a real navd what the README says it does.
@Suite("the README's view process", .timeLimit(.minutes(2)))
struct ViewProcessExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let examplePath = "Examples/view-process/ViewProcess.swift"

    @Test func theReadmeShowsTheExampleFileAsItIs() throws {
        let source = try String(contentsOf: Self.repository.appendingPathComponent(Self.examplePath), encoding: .utf8)
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(source.split(separator: "\n").count <= 30, "the example should stay short")
        #expect(readme.contains("```swift\n" + source + "```\n"), "README.md's swift block differs from \(Self.examplePath)")
    }

    @Test(.enabled(if: EndToEnd.navdAvailable && Products.exists("navd-view-example")))
    func theExampleShowsStatesAndPushesWhatIsTyped() throws {
        let fixture = try NavdOnPrivateBus()
        // The pipe's ends are close-on-exec (at once: pipe2 is not visible to Swift), so no process another
        // test starts meanwhile inherits the write end and keeps the example from reading the end of its input.
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let input = (read: FileHandle(fileDescriptor: ends[0], closeOnDealloc: true),
                     write: FileHandle(fileDescriptor: ends[1], closeOnDealloc: true))
        let outputPath = TemporaryDirectory.make("navd-view-example") + "/stdout"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { TemporaryDirectory.remove((outputPath as NSString).deletingLastPathComponent) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Products.url("navd-view-example"))
        process.environment = ProcessInfo.processInfo.environment.merging(fixture.bus.environment) { $1 }
        process.standardInput = input.read
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        try process.run()
        let pid = process.processIdentifier
        try input.read.close()
        defer { if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() } }
        func lines(_ count: Int) -> [String] {
            let deadline = Date().addingTimeInterval(20)
            while true {
                let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
                let lines = text.split(separator: "\n").map(String.init)
                if lines.count >= count || Date() >= deadline || !process.isRunning { return lines }
                usleep(10_000)
            }
        }
        #expect(lines(1) == ["showing red at revision 1"])
        input.write.write(Data("orange\n".utf8))
        #expect(lines(2).last == "showing orange at revision 2")
        input.write.write(Data("pink\n".utf8))
        #expect(lines(3).last == "refused pink: UnknownRoute")
        try input.write.close()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        #expect(!process.isRunning, "the example did not exit at the end of its input")
        #expect(process.isRunning || process.terminationStatus == 0)
        #expect(lines(3) == ["showing red at revision 1", "showing orange at revision 2", "refused pink: UnknownRoute"])
        #expect(try fixture.client().state().path.map(\.route) == ["red", "orange"])
    }
}
