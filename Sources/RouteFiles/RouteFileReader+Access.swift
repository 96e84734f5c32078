import Navigation

/// The `access:` key of a route file (docs/multi-user.md): `change` and `read`, each a list of
/// users and `@groups`, by name or number. Read here as written; `Access.resolved` turns the names
/// into ids when navd loads the file.
extension RouteFileReader {
    /// The largest id an entry may give: `uid_t` is 32 bits and its all-ones value means "no one".
    static let largestID: UInt64 = 4_294_967_294

    func readAccess(_ node: YAMLNode) throws(RouteFileError) -> Access {
        var access = Access()
        for (key, value) in try mapping(node, "access", keys: RouteFileKeys.access) {
            let entries = try readAccessList(value, join("access", key))
            if key == "change" { access.change = entries } else { access.read = entries }
        }
        return access
    }

    private func readAccessList(_ node: YAMLNode, _ path: String) throws(RouteFileError) -> [Access.Entry] {
        guard case .sequence(let sequence) = node else {
            throw fail(path, node, "expected a list of users and @groups, such as [alice, \"@shop\"]")
        }
        var entries: [Access.Entry] = []
        for item in sequence.items {
            let itemPath = "\(path)[\(entries.count)]"
            guard case .scalar(let scalar) = item else {
                throw fail(itemPath, item, "expected a user name, a uid, or @ and a group name or gid")
            }
            let text = scalar.string
            let isGroup = text.hasPrefix("@")
            let name = isGroup ? String(text.dropFirst()) : text
            let what = isGroup ? "group" : "user"
            guard !name.isEmpty else {
                throw fail(itemPath, item, "an empty \(what) name; write a \(what) name or number\(isGroup ? " after '@'" : "")")
            }
            guard name.utf8.count <= 256, !name.utf8.contains(where: { $0 <= 0x20 || $0 == 0x40 || $0 == 0x3A || $0 == 0x7F }) else {
                throw fail(itemPath, item, "'\(text)' is not a \(what) name: no spaces, ':' or '@' inside, at most 256 bytes")
            }
            let entry = Access.Entry(kind: isGroup ? .group : .user, name: name, line: item.line)
            if entry.isNumber {
                guard name.utf8.count <= 10, let number = UInt64(name), number <= Self.largestID else {
                    throw fail(itemPath, item, "\(what) id \(name) is out of range (0 to \(Self.largestID))")
                }
            }
            entries.append(entry)
        }
        return entries
    }
}

extension Access {
    /// The same access with every entry's id filled in: a number stands for itself, a name is
    /// looked up in the user database (`getpwnam`, `getgrnam`). An unknown name is an error naming
    /// `file`, the entry's line and the name.
    public func resolved(file: String) throws(RouteFileError) -> Access {
        var copy = self
        copy.change = try change.map { (entries) throws(RouteFileError) in try Self.resolve(entries, "access.change", file) }
        copy.read = try read.map { (entries) throws(RouteFileError) in try Self.resolve(entries, "access.read", file) }
        return copy
    }

    private static func resolve(_ entries: [Entry], _ path: String, _ file: String) throws(RouteFileError) -> [Entry] {
        var resolved: [Entry] = []
        for (index, var entry) in entries.enumerated() {
            if entry.isNumber {
                entry.id = UInt32(entry.name)
            } else {
                entry.id = entry.kind == .user ? UserDatabase.uid(named: entry.name) : UserDatabase.gid(named: entry.name)
                if entry.id == nil {
                    let what = entry.kind == .user ? "user" : "group"
                    throw RouteFileError(
                        file: file, keyPath: "\(path)[\(index)]", line: entry.line,
                        problem: "no \(what) '\(entry.name)' on this system (the user database has none); create it, or write its number")
                }
            }
            resolved.append(entry)
        }
        return resolved
    }
}

extension RouteGraph {
    /// The graph with its `access:` names resolved to ids (`Access.resolved`); `file` names it in errors.
    public func resolvingAccess(file: String) throws(RouteFileError) -> RouteGraph {
        guard let access else { return self }
        var graph = self
        graph.access = try access.resolved(file: file)
        return graph
    }
}
