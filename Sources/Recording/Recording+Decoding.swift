import JSON
import Navigation

extension Recording {
    /// Reads a recording's text, refusing with a message that names the problem: text that is not JSON (or ends
    /// early: a truncated file), a `navd-recording` version other than 1 (naming it), a key missing, unknown,
    /// given twice or of the wrong type (naming the key and the change). Arguments are checked against their
    /// method's in-signature (`RecordedCall`).
    public static func decode(_ text: String) throws(RecordingError) -> Recording {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            if error.offset >= text.utf8.count {
                throw RecordingError("the recording ends early (a truncated file?): \(error)")
            }
            throw RecordingError("not JSON: \(error)")
        }
        guard case .object = json else { throw RecordingError("a recording is a JSON object, not \(json.kindDescription)") }
        guard let versionValue = json["navd-recording"] else { throw RecordingError("not a recording: no \"navd-recording\" key") }
        guard case .int(let version) = versionValue, version == Int64(formatVersion) else {
            throw RecordingError("unknown navd-recording version \(versionValue.encoded()); this navd reads version \(formatVersion)")
        }
        var top = try ObjectReader(json, "the recording")
        _ = try top.required("navd-recording")
        let navd = try top.string("navd")
        let app = try top.string("app")
        let routes = try RecordingRoutes(json: try top.required("routes"), what: "\"routes\"")
        let start = try RecordingStart(json: try top.required("start"))
        guard case .array(let items) = try top.required("changes") else { throw RecordingError("\"changes\" must be an array") }
        let redacted = try top.bool("redacted")
        try top.finish()
        var changes: [RecordingChange] = []
        changes.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { changes.append(try RecordingChange(json: item, index: index)) }
        return Recording(navd: navd, app: app, routes: routes, start: start, changes: changes, redacted: redacted)
    }
}

extension RecordingRoutes {
    /// Reads `{"source": "demo"}` or `{"source": "file", "path", "text"}`; `what` names it in errors.
    init(json: JSONValue, what: String) throws(RecordingError) {
        var reader = try ObjectReader(json, what)
        switch try reader.string("source") {
        case "demo": self = .demo
        case "file": self = .file(path: try reader.string("path"), text: try reader.string("text"))
        case let other: throw RecordingError("\(what): source must be \"demo\" or \"file\", not \"\(other)\"")
        }
        try reader.finish()
    }
}

extension RecordingStart {
    /// Reads `{"revision": N, "state": BASE64}`.
    init(json: JSONValue) throws(RecordingError) {
        var reader = try ObjectReader(json, "\"start\"")
        let revision = try reader.unsigned("revision")
        guard let snapshot = Base64.decode(try reader.string("state")) else {
            throw RecordingError("\"state\" of \"start\" must be base64 text")
        }
        try reader.finish()
        self.init(revision: revision, snapshot: snapshot)
    }
}

extension RecordingChange {
    /// Reads change number `index` (counting from 0).
    init(json: JSONValue, index: Int) throws(RecordingError) {
        var reader = try ObjectReader(json, "change \(index)")
        revision = try reader.unsigned("revision")
        reader.what = "change \(index) (revision \(revision))"
        cause = try reader.string("cause")
        time = try reader.integer("time")
        let method = try reader.string("method")
        let arguments = reader.optional("args")
        if method.isEmpty != (arguments == nil) {
            throw RecordingError("\(reader.what): \"args\" must be given exactly when \"method\" is not \"\"")
        }
        if let arguments { _ = try reader.wrap { () throws(RecordingError) in try RecordedCall.arguments(method: method, json: arguments) } }
        self.method = method
        self.arguments = arguments
        let what = reader.what
        caller = try reader.optional("caller").map { value throws(RecordingError) in
            var who = try ObjectReader(value, "\"caller\" of \(what)")
            let command = try who.optionalString("command")
            let uid = try who.optionalUnsigned("uid")
            guard uid.map({ $0 <= UInt64(UInt32.max) }) ?? true else { throw RecordingError("\(who.what): uid \(uid!) is out of range") }
            try who.finish()
            return RecordingCaller(command: command, uid: uid.map { UInt32($0) })
        }
        tab = try reader.string("tab")
        guard case .array(let entries) = try reader.required("path") else { throw RecordingError("\(reader.what): \"path\" must be an array") }
        var path: [Entry] = []
        for (number, entry) in entries.enumerated() {
            path.append(try Self.entry(entry, what: "entry \(number) of the path of \(reader.what)"))
        }
        self.path = path
        nextId = try reader.unsigned("next-id")
        routes = try reader.optional("routes").map { value throws(RecordingError) in
            try RecordingRoutes(json: value, what: "\"routes\" of \(what)")
        }
        try reader.finish()
    }

    static func entry(_ json: JSONValue, what: String) throws(RecordingError) -> Entry {
        guard case .array(let fields) = json, fields.count == 4, case .string(let id) = fields[0], case .string(let route) = fields[1],
              case .string(let presentationName) = fields[2], case .object(let members) = fields[3]
        else { throw RecordingError("\(what) must be [id, route, presentation, params]") }
        guard let presentation = Presentation(rawValue: presentationName) else {
            throw RecordingError("\(what): unknown presentation '\(presentationName)'")
        }
        var params: [String: ParamValue] = [:]
        for (key, value) in members {
            switch value {
            case .string(let v): params[key] = .string(v)
            case .int(let v): params[key] = .int(v)
            case .double(let v): params[key] = .double(v)
            case .bool(let v): params[key] = .bool(v)
            default: throw RecordingError("\(what): param '\(key)' must be a string, number or bool, not \(value.kindDescription)")
            }
        }
        return Entry(id: id, route: route, presentation: presentation, params: params)
    }
}

/// Reads an object's keys one by one, refusing a key given twice, of the wrong type, missing, or left unread.
struct ObjectReader {
    private var members: [(String, JSONValue)]
    var what: String

    init(_ json: JSONValue, _ what: String) throws(RecordingError) {
        guard case .object(let members) = json else { throw RecordingError("\(what) must be an object, not \(json.kindDescription)") }
        var seen: Set<String> = []
        for (key, _) in members where !seen.insert(key).inserted { throw RecordingError("\(what): \"\(key)\" is given twice") }
        self.members = members
        self.what = what
    }

    mutating func optional(_ key: String) -> JSONValue? {
        guard let index = members.firstIndex(where: { $0.0 == key }) else { return nil }
        return members.remove(at: index).1
    }

    mutating func required(_ key: String) throws(RecordingError) -> JSONValue {
        guard let value = optional(key) else { throw RecordingError("\(what): missing \"\(key)\"") }
        return value
    }

    func wrong(_ key: String, _ expected: String, _ value: JSONValue) -> RecordingError {
        RecordingError("\(what): \"\(key)\" must be \(expected), not \(value.kindDescription)")
    }

    mutating func string(_ key: String) throws(RecordingError) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw wrong(key, "a string", value) }
        return text
    }

    mutating func optionalString(_ key: String) throws(RecordingError) -> String? {
        guard let value = optional(key) else { return nil }
        guard case .string(let text) = value else { throw wrong(key, "a string", value) }
        return text
    }

    mutating func bool(_ key: String) throws(RecordingError) -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw wrong(key, "true or false", value) }
        return flag
    }

    mutating func unsigned(_ key: String) throws(RecordingError) -> UInt64 {
        let value = try required(key)
        guard let number = value.unsignedValue else { throw wrong(key, "a whole number ≥ 0", value) }
        return number
    }

    mutating func optionalUnsigned(_ key: String) throws(RecordingError) -> UInt64? {
        guard let value = optional(key) else { return nil }
        guard let number = value.unsignedValue else { throw wrong(key, "a whole number ≥ 0", value) }
        return number
    }

    mutating func integer(_ key: String) throws(RecordingError) -> Int64 {
        let value = try required(key)
        guard case .int(let number) = value else { throw wrong(key, "a whole number", value) }
        return number
    }

    /// Runs `body`, prefixing its error with what this reader reads.
    func wrap<T>(_ body: () throws(RecordingError) -> T) throws(RecordingError) -> T {
        do { return try body() } catch { throw RecordingError("\(what): \(error.description)") }
    }

    /// Refuses the keys left unread.
    func finish() throws(RecordingError) {
        if let (key, _) = members.first { throw RecordingError("\(what): unknown key \"\(key)\"") }
    }
}
