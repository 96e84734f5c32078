/// A route file that cannot be used: which file, where in it, and what is wrong.
public struct RouteFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's path (or a label such as `<demo>`).
    public var file: String
    /// The key path of the offending value, such as `routes.news-item.params.id` (empty for the whole file).
    public var keyPath: String
    /// The 1-based line of the offending value, when known.
    public var line: Int?
    /// What is wrong and, where possible, what to write instead.
    public var problem: String

    /// An error at `keyPath` of `file`.
    public init(file: String, keyPath: String, line: Int? = nil, problem: String) {
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.problem = problem
    }

    /// "file:line: key.path: problem".
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if !keyPath.isEmpty { text += "\(keyPath): " }
        return text + problem
    }
}
