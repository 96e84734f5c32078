/// Who may change and who may read one navigator: a route file's `access:` key, as plain values
/// (docs/multi-user.md). Names are resolved to ids by the route-file loader (the user database is
/// I/O, so it stays out of this module); a decision here only compares numbers.
public struct Access: Hashable, Sendable {
    /// One entry of a `change` or `read` list: a user or a group (`@` in the file), as written,
    /// with the id it stood for when the file was loaded.
    public struct Entry: Hashable, Sendable {
        /// Whether the entry names a user or a group.
        public enum Kind: Hashable, Sendable {
            case user, group
        }

        /// User or group.
        public var kind: Kind
        /// The name or number as written, without the `@` ("alice", "1001").
        public var name: String
        /// The 1-based line of the entry in its route file, for errors.
        public var line: Int?
        /// The uid or gid; nil until resolved (an unresolved entry matches nobody).
        public var id: UInt32?

        /// An entry, unresolved unless `id` is given.
        public init(kind: Kind, name: String, line: Int? = nil, id: UInt32? = nil) {
            self.kind = kind
            self.name = name
            self.line = line
            self.id = id
        }

        /// The entry as written in the file: "alice" or "@shop".
        public var written: String { kind == .group ? "@" + name : name }

        /// Whether `name` is a number (an id given directly rather than a name).
        public var isNumber: Bool { !name.isEmpty && name.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// What a call asks for: to change the navigator, or to read it.
    public enum Level: Hashable, Sendable {
        case change, read
    }

    /// The `change` list; nil when the file leaves it out (then only root and navd's own user may change).
    public var change: [Entry]?
    /// The `read` list; nil when the file leaves it out (then everyone may read).
    public var read: [Entry]?

    /// An `access:` key with the given lists.
    public init(change: [Entry]? = nil, read: [Entry]? = nil) {
        self.change = change
        self.read = read
    }

    /// Whether a caller who is user `uid`, member of `groups`, may make a call of `level`. Root and
    /// navd's own user are the caller's business (see the daemon), not the file's. Being allowed
    /// to change includes reading; a left-out `read` lets everyone read.
    public func allows(uid: UInt32, groups: [UInt32], _ level: Level) -> Bool {
        if Self.matches(change ?? [], uid: uid, groups: groups) { return true }
        guard level == .read else { return false }
        guard let read else { return true }
        return Self.matches(read, uid: uid, groups: groups)
    }

    /// Whether everyone may read (the file has no `read` list).
    public var isOpenForReading: Bool { read == nil }

    private static func matches(_ entries: [Entry], uid: UInt32, groups: [UInt32]) -> Bool {
        for entry in entries {
            guard let id = entry.id else { continue }
            switch entry.kind {
            case .user: if id == uid { return true }
            case .group: if groups.contains(id) { return true }
            }
        }
        return false
    }

    /// Property `Access`'s content: the keys given in the file, each list as written.
    public var written: [(key: String, entries: [String])] {
        var pairs: [(key: String, entries: [String])] = []
        if let change { pairs.append(("change", change.map(\.written))) }
        if let read { pairs.append(("read", read.map(\.written))) }
        return pairs
    }

    /// "user alice and group shop" (who a list lets in, for a refusal's message); "only root and
    /// navd's own user" for an empty list.
    public static func describe(_ entries: [Entry]) -> String {
        let users = entries.filter { $0.kind == .user }.map(\.name)
        let groups = entries.filter { $0.kind == .group }.map(\.name)
        var parts: [String] = []
        if !users.isEmpty { parts.append((users.count == 1 ? "user " : "users ") + Self.list(users)) }
        if !groups.isEmpty { parts.append((groups.count == 1 ? "group " : "groups ") + Self.list(groups)) }
        return parts.isEmpty ? "only root and navd's own user" : parts.joined(separator: " and ")
    }

    /// Who may make a call of `level`, in words: `describe` of the lists that let a caller in.
    public func describeAllowed(_ level: Level) -> String {
        switch level {
        case .change: return Self.describe(change ?? [])
        case .read: return read == nil ? "everyone" : Self.describe((change ?? []) + (read ?? []))
        }
    }

    private static func list(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
