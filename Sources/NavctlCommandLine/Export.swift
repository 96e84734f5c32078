import ArgumentParser
import ClientCommandLine
import Glibc
import NavdClient

/// `navctl export [--from REV] [--redact] [-o FILE]`: Export's recording, to standard output or a file.
struct Export: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("export")
    static let abstract = "Write a recording of the kept changes (JSON), for navctl replay or a bug report."
    static let discussion = """
        The recording holds the route graph, the state the first change started from, and every change after it: \
        its request, its caller, and the tab and path it left. --redact replaces every param value by a \
        placeholder of the same type (strings of x, 0, 0.0, false) and drops the callers; facts and route files \
        are kept.
        """

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("Start at the first kept change at or after this revision (0: the oldest kept).", valueName: "revision"))
    var from: UInt64 = 0
    @Flag(help: "Replace every param value by a placeholder of its type and leave out the callers.") var redact = false
    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var output: String?

    func run() throws {
        let session = try Session(options)
        let recording = try session.client.send(.export(from: from, redact: redact))
        guard let output else {
            print(recording, terminator: "")
            return
        }
        if let problem = writeWholeFile(output, recording) { throw ValidationError("cannot write '\(output)': \(problem)") }
    }
}

/// Writes `text` to `path` (created with mode 0644, or emptied first); nil, or what went wrong.
func writeWholeFile(_ path: String, _ text: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return String(cString: strerror(errno))
        }
        written += count
    }
    return nil
}
