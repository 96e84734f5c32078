import CYAML

// The composer's refusals, each one line naming the file and the line:
// `FILE:LINE: not valid YAML: PROBLEM at column C (CONTEXT at line L, column C)` for what libyaml
// (or YAML itself) refuses, with libyaml's own problem and context words; the bounds in words
// that say what to change.

extension YAMLComposer {
    /// libyaml's refusal of the input, located.
    func syntaxError(_ parser: yaml_parser_t, _ input: UnsafeBufferPointer<UInt8>) -> RouteFileError {
        let problem = parser.problem.map { String(cString: $0) } ?? "libyaml stopped without saying why"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return outOfMemory()
        case YAML_READER_ERROR:
            // The reader (encoding, control characters) gives a byte offset rather than a mark.
            let (line, column) = Self.position(of: parser.problem_offset, in: input)
            return notValid(problem, line: line, column: column, context: nil)
        default:
            let context = parser.context.map {
                (String(cString: $0), parser.context_mark.line + 1, parser.context_mark.column + 1)
            }
            return notValid(problem, line: parser.problem_mark.line + 1, column: parser.problem_mark.column + 1, context: context)
        }
    }

    /// `not valid YAML: PROBLEM at column C (CONTEXT at line L, column C)` on `line`.
    func notValid(_ problem: String, line: Int, column: Int, context: (text: String, line: Int, column: Int)?) -> RouteFileError {
        var text = "not valid YAML: \(problem) at column \(column)"
        if let context {
            text += " (\(context.text) at line \(context.line), column \(context.column))"
        }
        return RouteFileError(file: file, keyPath: "", line: line, problem: text)
    }

    func outOfMemory() -> RouteFileError {
        RouteFileError(file: file, keyPath: "", problem: "not valid YAML: libyaml ran out of memory")
    }

    func duplicateKeys(_ keys: [String], line: Int) -> RouteFileError {
        let names = keys.map { "'\($0)'" }.joined(separator: ", ")
        return RouteFileError(
            file: file, keyPath: "", line: line,
            problem: "not valid YAML: the key \(names) appears twice in the mapping that starts here; keep one")
    }

    func tooDeep(line: Int, column: Int) -> RouteFileError {
        RouteFileError(
            file: file, keyPath: "", line: line,
            problem: "nested deeper than \(Self.maximumDepth) levels (at column \(column), aliases expanded); navd reads route files nested at most \(Self.maximumDepth) deep")
    }

    func tooManyAliasNodes(line: Int, column: Int) -> RouteFileError {
        RouteFileError(
            file: file, keyPath: "", line: line,
            problem: "YAML aliases expand to more than \(Self.maximumAliasNodes) nodes (the alias at column \(column) passes the bound); navd expands at most \(Self.maximumAliasNodes), so write the shared part out or share it less")
    }

    /// The 1-based line and column (in characters) of byte `offset` of `input`.
    static func position(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in input.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
