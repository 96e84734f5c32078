#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl apply FILE|- [--expect REVISION]`: Apply.
struct Apply: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("apply")
    static let abstract = "Apply a batch of operations from a JSON file as one change."
    static let discussion = """
        The file holds [{"op": "push", "route": "orange"}, {"op": "send", "event": "next"}, …] or \
        {"expect": 12, "ops": [...]}. Every op of Apply is taken, by the contract's name (popto, selecttab, \
        setfacts, …) or navctl's (pop-to, tab, root, set-stack, dismiss-all, set-facts); the other keys are the \
        op's arguments (route, params, target, style, tab, screens, event, source, flow, output, facts).
        """

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("The batch file, or - for standard input.", valueName: "file"),
              completion: .file(extensions: ["json"]))
    var file: String
    @Option(help: ArgumentHelp("Fail with StaleRevision unless navd is at this revision (overrides the file's).",
                               valueName: "revision"))
    var expect: UInt64?

    func run() throws {
        guard let text = readWholeFile(file == "-" ? nil : file) else {
            throw ValidationError("cannot read '\(file)'")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw ValidationError("\(file): \(error)") }
        var batch: Batch
        do { batch = try Batch(json: json) } catch { throw ValidationError("\(file): \(error)") }
        let session = try Session(options)
        // Params are converted to the types navd declares (the routes', the facts'), asked only when needed.
        var types = BatchParamTypes(routes: try session.declaredTypes(for: batch.routesWithParams))
        if batch.setsFacts { types.facts = try session.client.send(.facts).mapValues(\.type.rawValue) }
        if !types.routes.isEmpty || !types.facts.isEmpty {
            do { batch = try Batch(json: json, types: types) } catch { throw ValidationError("\(file): \(error)") }
        }
        let expected = expect ?? batch.expectedRevision ?? 0
        try session.change(.apply, .apply(batch.operations, expectedRevision: expected))
    }
}

/// The whole content of a file (nil: standard input), or nil when it cannot be read.
func readWholeFile(_ path: String?) -> String? {
    let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? 0
    guard descriptor >= 0 else { return nil }
    defer { if path != nil { close(descriptor) } }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if count == 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}
