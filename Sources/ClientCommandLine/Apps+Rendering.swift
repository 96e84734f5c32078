import NavdClient

extension AppInfo {
    /// `{"name", "path", "revision", "top", "topId", "depth", "tab"}`.
    public var json: JSONValue {
        .object([
            ("name", .string(name)), ("path", .string(path.rawValue)), ("revision", .number(revision)),
            ("top", .string(top)), ("topId", .string(properties.topID)), ("depth", .int(Int64(properties.depth))),
            ("tab", .string(properties.selectedTab)),
        ])
    }
}
