import NavdClient

extension ParamValue {
    /// Converts command-line text whose type nobody declared (an event's, a flow's or an output's params):
    /// an integer when it reads as one (`42`, `-7`), a bool for `true` or `false`, else the text as a string.
    public init(inferringFrom text: String) {
        if let value = Int64(text) {
            self = .int(value)
        } else if text == "true" || text == "false" {
            self = .bool(text == "true")
        } else {
            self = .string(text)
        }
    }
}

extension RouteInfo {
    /// Reads `key=value` words whose types are not declared per route (event, flow and output params, facts).
    ///
    /// A key in `declaredTypes` converts as `params(fromAssignments:declaredTypes:)` does; `key:TYPE=value`
    /// names the type itself (`message:string=404` sends the string "404"); any other value is inferred
    /// (`ParamValue(inferringFrom:)`). A `:TYPE` that is not `string`, `int`, `double` or `bool` is part of the key.
    public static func params(inferringFromAssignments words: [String], declaredTypes: [String: String] = [:])
        throws(ParamSyntaxError) -> Params
    {
        var result: Params = [:]
        for (word, declaredKey, text) in try assignments(words) {
            var key = declaredKey
            var type = declaredTypes[key]
            if let colon = key.lastIndex(of: ":"), ParamType(rawValue: String(key[key.index(after: colon)...])) != nil {
                type = String(key[key.index(after: colon)...])
                key = String(key[..<colon])
                guard !key.isEmpty else { throw ParamSyntaxError(text: word) }
            }
            result[key] = type.map { ParamValue(text: text, declaredType: $0) } ?? ParamValue(inferringFrom: text)
        }
        return result
    }
}
