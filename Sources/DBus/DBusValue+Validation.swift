extension DBusValue {
    /// The most arrays one signature may nest (D-Bus specification).
    public static let maximumArrayDepth = 32
    /// The most structs (dict entries included) one signature may nest.
    public static let maximumStructDepth = 32
    /// The most containers (arrays, structs, dict entries, variants) a message may nest in total.
    public static let maximumTotalDepth = 64

    /// Throws `InvalidArgs` unless this value can be appended to a message as it is: its
    /// signature is valid, array elements and dictionary entries match their declared types,
    /// keys are basic, structs are non-empty, strings are UTF-8 without NUL, paths and
    /// signatures are valid, and nesting stays within the specification's limits.
    public func validateForSending() throws(DBusError) {
        try validateForSending(depth: 0)
    }

    /// The same check, for a value that sits inside `depth` containers already.
    func validateForSending(depth: Int) throws(DBusError) {
        try Validate.singleSignature(signature.rawValue)
        try validateContents(depth: depth)
    }

    private func validateContents(depth: Int) throws(DBusError) {
        switch self {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return
        case .string(let s):
            try Validate.string(s)
        case .objectPath(let p):
            try Validate.path(p.rawValue)
        case .signature(let g):
            try Validate.signature(g.rawValue)
        case .array(let element, let values):
            try Self.checkDepth(depth + 1)
            for value in values {
                let actual = value.signature
                if actual != element {
                    throw .invalidArgs("array of '\(element)' holds an element of type '\(actual)'")
                }
                try value.validateContents(depth: depth + 1)
            }
        case .dictionary(let key, let valueType, let entries):
            try Self.checkDepth(depth + 2)
            if !Self.basicSignatures.contains(key.rawValue) {
                throw .invalidArgs("dictionary key type '\(key)' is not a basic type")
            }
            for entry in entries {
                if entry.key.signature != key {
                    throw .invalidArgs("dictionary with '\(key)' keys holds a key of type '\(entry.key.signature)'")
                }
                if entry.value.signature != valueType {
                    throw .invalidArgs(
                        "dictionary with '\(valueType)' values holds a value of type '\(entry.value.signature)'")
                }
                try entry.key.validateContents(depth: depth + 2)
                try entry.value.validateContents(depth: depth + 2)
            }
        case .structure(let fields):
            if fields.isEmpty { throw .invalidArgs("a struct needs at least one field") }
            try Self.checkDepth(depth + 1)
            for field in fields { try field.validateContents(depth: depth + 1) }
        case .variant(let inner):
            try Self.checkDepth(depth + 1)
            try inner.validateForSending(depth: depth + 1)
        }
    }

    private static func checkDepth(_ depth: Int) throws(DBusError) {
        if depth > maximumTotalDepth {
            throw .invalidArgs("value nests more than \(maximumTotalDepth) containers, the D-Bus limit")
        }
    }

    static let basicSignatures: Set<String> = ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h"]
}
