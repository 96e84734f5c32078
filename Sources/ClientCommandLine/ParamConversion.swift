import NavdClient

/// A param written on a command line could not be read (`key=value` without `=`, or an empty key).
public struct ParamSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that was given.
    public var text: String
    /// What is expected instead.
    public var description: String { "expected key=value, got '\(text)'" }
}

extension RouteInfo {
    /// Reads `key=value` words into params of the types this route declares
    /// (undeclared keys and values that don't parse stay strings, for the daemon to refuse).
    public func params(fromAssignments words: [String]) throws(ParamSyntaxError) -> Params {
        try Self.params(fromAssignments: words, declaredTypes: params)
    }

    /// Reads `key=value` words into params converted to `declaredTypes` (param name to type name).
    public static func params(fromAssignments words: [String], declaredTypes: [String: String])
        throws(ParamSyntaxError) -> Params
    {
        var result: Params = [:]
        for assignment in try assignments(words) {
            result[assignment.key] = ParamValue(text: assignment.text, declaredType: declaredTypes[assignment.key])
        }
        return result
    }

    /// `key=value` words split at their first `=`, in order; a word without `=` or with an empty key is refused.
    static func assignments(_ words: [String]) throws(ParamSyntaxError) -> [(word: String, key: String, text: String)] {
        try words.map { word throws(ParamSyntaxError) in
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { throw ParamSyntaxError(text: word) }
            return (word, String(word[..<equals]), String(word[word.index(after: equals)...]))
        }
    }
}

extension ScreenSpec {
    /// Reads a screen written as `ROUTE[;key=value…]` (the generic link syntax; values may be percent-encoded),
    /// converting values with `declaredTypes(route)`.
    public init(word: String, declaredTypes: (String) -> [String: String]) throws(ParamSyntaxError) {
        let parts = word.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let route = parts[0]
        guard !route.isEmpty else { throw ParamSyntaxError(text: word) }
        let assignments = parts.dropFirst().map { percentDecoded($0) }
        self.init(route: route, params: try RouteInfo.params(fromAssignments: Array(assignments),
                                                             declaredTypes: declaredTypes(route)))
    }
}

/// `text` with `%XX` sequences decoded; malformed sequences are kept as written.
func percentDecoded(_ text: String) -> String {
    guard text.contains("%") else { return text }
    var bytes: [UInt8] = []
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
        if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
           let byte = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16)
        {
            bytes.append(byte)
            index += 3
        } else {
            bytes.append(utf8[index])
            index += 1
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
