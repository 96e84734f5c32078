import JSON
import Navigation

extension Recording {
    /// The recording as UTF-8 JSON text: one object whose keys come in the documented order, each change on a
    /// line of its own, ending in a newline.
    public func encoded() -> String {
        var text = "{"
        let head: [(String, JSONValue)] = [
            ("navd-recording", .number(Self.formatVersion)), ("navd", .string(navd)), ("app", .string(app)),
            ("routes", routes.json), ("start", start.json),
        ]
        for (key, value) in head {
            JSONValue.string(key).encode(into: &text)
            text += ":"
            value.encode(into: &text)
            text += ","
        }
        text += "\"changes\":["
        for (index, change) in changes.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            change.json.encode(into: &text)
        }
        text += changes.isEmpty ? "]," : "\n],"
        text += "\"redacted\":\(redacted)}\n"
        return text
    }
}

extension RecordingRoutes {
    /// `{"source": "demo"}` or `{"source": "file", "path": …, "text": …}`.
    public var json: JSONValue {
        switch self {
        case .demo: .object([("source", .string("demo"))])
        case .file(let path, let text): .object([("source", .string("file")), ("path", .string(path)), ("text", .string(text))])
        }
    }
}

extension RecordingStart {
    /// `{"revision": N, "state": BASE64}`.
    public var json: JSONValue { .object([("revision", .number(revision)), ("state", .string(Base64.encode(snapshot)))]) }
}

extension RecordingChange {
    /// The change's object, keys in the documented order; `args` only for a call, `caller` only when known,
    /// `routes` only when the graph changed.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("revision", .number(revision)), ("cause", .string(cause)), ("time", .int(time)), ("method", .string(method)),
        ]
        if let arguments { members.append(("args", arguments)) }
        if let caller {
            var who: [(String, JSONValue)] = []
            if let command = caller.command { who.append(("command", .string(command))) }
            if let uid = caller.uid { who.append(("uid", .number(UInt64(uid)))) }
            members.append(("caller", .object(who)))
        }
        members.append(("tab", .string(tab)))
        members.append(("path", .array(path.map { entry in
            .array([.string(entry.id), .string(entry.route), .string(entry.presentation.rawValue), entry.params.json])
        })))
        members.append(("next-id", .number(nextId)))
        if let routes { members.append(("routes", routes.json)) }
        return .object(members)
    }
}
