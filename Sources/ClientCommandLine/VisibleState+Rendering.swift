import JSON
import Recording
import NavdClient

extension Entry {
    /// The entry as in a path line: the route, prefixed by `[sheet]` or `[cover]` for a layer's root screen.
    public var pathLabel: String {
        switch presentation {
        case .sheet, .cover: return "[\(presentation.rawValue)] \(route)"
        case .root, .push: return route
        }
    }

    /// The entry as a JSON object: `{"id", "route", "presentation", "params"}`.
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("route", .string(route)),
            ("presentation", .string(presentation.rawValue)), ("params", params.json),
        ])
    }
}

extension VisibleState {
    /// The path for people: `red > orange > [sheet] modal`.
    public var pathText: String {
        path.map(\.pathLabel).joined(separator: " > ")
    }

    /// One line: `12 push rainbow: red > orange > yellow` (no `tab:` part when the app is not tabbed).
    public func line(cause: String) -> String {
        let prefix = tab.isEmpty ? "" : "\(tab): "
        return "\(revision) \(cause) \(prefix)\(pathText)"
    }

    /// The stable JSON shape: `{"revision", "cause", "tab", "path", "top", "depth"}` (top is `""` for an empty path).
    public func json(cause: String) -> JSONValue {
        .object([
            ("revision", .number(revision)), ("cause", .string(cause)), ("tab", .string(tab)),
            ("path", .array(path.map(\.json))),
            ("top", .string(top?.route ?? "")), ("depth", .int(Int64(path.count))),
        ])
    }

    /// Fills a template's fields: `{revision} {cause} {tab} {top} {id} {depth} {path}`;
    /// `{{` and `}}` stand for braces; unknown fields are left as written.
    public func format(_ template: String, cause: String) -> String {
        let fields: [String: String] = [
            "revision": String(revision), "cause": cause, "tab": tab, "top": top?.route ?? "",
            "id": top?.id ?? "", "depth": String(path.count), "path": pathText,
        ]
        var output = ""
        var rest = Substring(template)
        while let character = rest.first {
            if rest.hasPrefix("{{") { output += "{"; rest = rest.dropFirst(2); continue }
            if rest.hasPrefix("}}") { output += "}"; rest = rest.dropFirst(2); continue }
            if character == "{", let close = rest.firstIndex(of: "}") {
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                if let value = fields[name] {
                    output += value
                    rest = rest[rest.index(after: close)...]
                    continue
                }
            }
            output.append(character)
            rest = rest.dropFirst()
        }
        return output
    }
}

extension StateChange {
    /// `VisibleState.line(cause:)` with this change's cause.
    public var line: String { state.line(cause: cause) }
    /// `VisibleState.json(cause:)` with this change's cause.
    public var json: JSONValue { state.json(cause: cause) }
}
