import JSON
import NavdClient

extension AppInfo {
    /// `{"name", "path", "revision", "top", "topId", "depth", "tab", "access"}`; `access` is `{}` for an
    /// app without `access:`, and an app the caller may not read carries only name, path and access.
    public var json: JSONValue {
        let access = JSONValue.object(properties.access.keys.sorted().map { key in
            (key, .array((properties.access[key] ?? []).map { .string($0) }))
        })
        guard isReadable else { return .object([("name", .string(name)), ("path", .string(path.rawValue)), ("access", access)]) }
        return .object([
            ("name", .string(name)), ("path", .string(path.rawValue)), ("revision", .number(revision)),
            ("top", .string(top)), ("topId", .string(properties.topID)), ("depth", .int(Int64(properties.depth))),
            ("tab", .string(properties.selectedTab)), ("access", access),
        ])
    }

    /// The app's `access` for a listing: `change: alice, @shop; read: @monitor`, "" without one.
    public var accessText: String {
        properties.access.keys.sorted().map { key in
            "\(key): " + (properties.access[key] ?? []).joined(separator: ", ")
        }.joined(separator: "; ")
    }
}
