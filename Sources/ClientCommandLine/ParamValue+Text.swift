import NavdClient

extension ParamValue {
    /// Converts command-line text to the type a route declares (`string`, `int`, `double`, `bool`).
    ///
    /// Text that does not parse as the declared type, or an undeclared type, stays a string:
    /// the client converts and leaves every other check to the daemon, which refuses with its own message.
    public init(text: String, declaredType: String?) {
        switch declaredType {
        case "int":
            if let value = Int64(text) { self = .int(value) } else { self = .string(text) }
        case "double":
            if let value = Double(text), value.isFinite { self = .double(value) } else { self = .string(text) }
        case "bool":
            switch text.lowercased() {
            case "true", "yes", "1", "on": self = .bool(true)
            case "false", "no", "0", "off": self = .bool(false)
            default: self = .string(text)
            }
        default:
            self = .string(text)
        }
    }

    /// The value as a person would type it: `42`, `2.5`, `true`, or the string itself.
    public var text: String {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        }
    }
}
