// Stable, hand-written Codable forms: one-key objects tagged by short strings, never type names.

extension InputValue: Codable {
    private enum Tag: String, CodingKey {
        case string = "s", bool = "b", int = "i", uint = "u", double = "d", list = "l", record = "r", map = "m"
        case variant = "v", other = "o"
    }

    /// Encodes as a one-key object, such as `{"i": 7}` or `{"s": "text"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Tag.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .int(let value): try container.encode(value, forKey: .int)
        case .uint(let value): try container.encode(value, forKey: .uint)
        case .double(let value): try container.encode(value, forKey: .double)
        case .list(let value): try container.encode(value, forKey: .list)
        case .record(let value): try container.encode(value, forKey: .record)
        case .map(let value): try container.encode(value, forKey: .map)
        case .variant(let value): try container.encode(value, forKey: .variant)
        case .other(let value): try container.encode(value, forKey: .other)
        }
    }

    /// Decodes the one-key object form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Tag.self)
        guard container.allKeys.count == 1, let tag = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an input value is an object with exactly one key"))
        }
        switch tag {
        case .string: self = .string(try container.decode(String.self, forKey: tag))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: tag))
        case .int: self = .int(try container.decode(Int64.self, forKey: tag))
        case .uint: self = .uint(try container.decode(UInt64.self, forKey: tag))
        case .double: self = .double(try container.decode(Double.self, forKey: tag))
        case .list: self = .list(try container.decode([InputValue].self, forKey: tag))
        case .record: self = .record(try container.decode([InputValue].self, forKey: tag))
        case .map: self = .map(try container.decode([String: InputValue].self, forKey: tag))
        case .variant: self = .variant(try container.decode(InputValue.self, forKey: tag))
        case .other: self = .other(try container.decode(String.self, forKey: tag))
        }
    }
}

extension ParamValue {
    private enum Tag: String, CodingKey {
        case string, int, double, bool
    }

    /// Encodes as a one-key object named by the type: `{"int": 7}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Tag.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .int(let value): try container.encode(value, forKey: .int)
        case .double(let value): try container.encode(value, forKey: .double)
        case .bool(let value): try container.encode(value, forKey: .bool)
        }
    }

    /// Decodes the one-key object form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Tag.self)
        guard container.allKeys.count == 1, let tag = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a param value is an object with exactly one key"))
        }
        switch tag {
        case .string: self = .string(try container.decode(String.self, forKey: tag))
        case .int: self = .int(try container.decode(Int64.self, forKey: tag))
        case .double: self = .double(try container.decode(Double.self, forKey: tag))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: tag))
        }
    }
}

extension Operation: Codable {
    private enum Key: String, CodingKey {
        case op, route, params, target, style, tab, screens, ops, expectedRevision
    }

    /// Encodes as `{"op": "push", "route": …, "params": …}`, tagged by `cause`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(cause, forKey: .op)
        switch self {
        case .push(let route, let params), .replace(let route, let params):
            try container.encode(route, forKey: .route)
            try container.encode(params, forKey: .params)
        case .present(let route, let params, let style):
            try container.encode(route, forKey: .route)
            try container.encode(params, forKey: .params)
            try container.encode(style, forKey: .style)
        case .popTo(let target), .open(let target):
            try container.encode(target, forKey: .target)
        case .selectTab(let tab):
            try container.encode(tab, forKey: .tab)
        case .setStack(let screens):
            try container.encode(screens, forKey: .screens)
        case .apply(let ops, let expectedRevision):
            try container.encode(ops, forKey: .ops)
            try container.encode(expectedRevision, forKey: .expectedRevision)
        case .pop, .popToRoot, .dismiss, .dismissAll, .back, .undo, .redo, .reconcile:
            break
        }
    }

    /// Decodes the tagged form; an unknown tag is a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let tag = try container.decode(String.self, forKey: .op)
        func string(_ key: Key) throws -> String { try container.decode(String.self, forKey: key) }
        func params() throws -> InputParams { try container.decode(InputParams.self, forKey: .params) }
        switch tag {
        case "push": self = .push(route: try string(.route), params: try params())
        case "pop": self = .pop
        case "popto": self = .popTo(target: try string(.target))
        case "poptoroot": self = .popToRoot
        case "replace": self = .replace(route: try string(.route), params: try params())
        case "setstack": self = .setStack(try container.decode([ScreenRequest].self, forKey: .screens))
        case "present": self = .present(route: try string(.route), params: try params(), style: try string(.style))
        case "dismiss": self = .dismiss
        case "dismissall": self = .dismissAll
        case "back": self = .back
        case "selecttab": self = .selectTab(try string(.tab))
        case "open": self = .open(try string(.target))
        case "apply":
            self = .apply(
                try container.decode([RawOperation].self, forKey: .ops),
                expectedRevision: try container.decode(UInt64.self, forKey: .expectedRevision))
        case "undo": self = .undo
        case "redo": self = .redo
        case "reconcile": self = .reconcile
        default:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown operation '\(tag)'")
        }
    }
}
