import DBus

/// Reads the contract's reply shapes through NavigatorProtocol's decoders; every mismatch throws
/// `.unexpectedReply` saying what was expected.
enum Reply {
    /// Runs a decoder, turning its `InvalidArgs` into `.unexpectedReply`.
    static func decode<T>(_ body: () throws(DBusError) -> T) throws(NavigatorError) -> T {
        do {
            return try body()
        } catch {
            throw .unexpectedReply(error.message)
        }
    }

    static func revision(_ values: [DBusValue]) throws(NavigatorError) -> UInt64 {
        try decode { () throws(DBusError) in try values[0].requiredUInt64("revision") }
    }

    static func addedScreen(_ values: [DBusValue]) throws(NavigatorError) -> AddedScreen {
        try decode { () throws(DBusError) in
            AddedScreen(revision: try values[0].requiredUInt64("revision"), id: try values[1].requiredString("id"))
        }
    }

    /// `(t revision, s tab, a(sssa{sv}) path)`: GetState's reply and StackChanged's last three arguments.
    static func state(_ values: ArraySlice<DBusValue>) throws(NavigatorError) -> VisibleState {
        let start = values.startIndex
        return try decode { () throws(DBusError) in
            VisibleState(
                revision: try values[start].requiredUInt64("revision"), tab: try values[start + 1].requiredString("tab"),
                path: try Entry.path(dbusValue: values[start + 2]))
        }
    }

    /// StackChanged `(t revision, s cause, s tab, a(sssa{sv}) path)`, its signature already checked.
    static func stateChange(_ values: [DBusValue]) throws(NavigatorError) -> StateChange {
        let cause = try decode { () throws(DBusError) in try values[1].requiredString("cause") }
        return StateChange(cause: cause, state: try state([values[0], values[2], values[3]][...]))
    }

    static func tree(_ values: [DBusValue]) throws(NavigatorError) -> NavigationTree {
        try decode { () throws(DBusError) in
            NavigationTree(
                revision: try values[0].requiredUInt64("revision"), tab: try values[1].requiredString("tab"),
                nodes: try Node.nodes(dbusValue: values[2]))
        }
    }

    static func routes(_ values: [DBusValue]) throws(NavigatorError) -> [RouteInfo] {
        try decode { () throws(DBusError) in try RouteInfo.routes(dbusValue: values[0]) }
    }

    static func history(_ values: [DBusValue]) throws(NavigatorError) -> [HistoryEntry] {
        try decode { () throws(DBusError) in try HistoryEntry.history(dbusValue: values[0]) }
    }

    /// `GetAll`'s `a{sv}`; a declared property of another type than declared is an unexpected reply.
    static func properties(_ values: [DBusValue]) throws(NavigatorError) -> NavigatorProperties {
        guard values.count == 1, let pairs = values[0].stringKeyedPairs else {
            throw .unexpectedReply("expected a{sv} properties")
        }
        var properties = NavigatorProperties()
        for (key, value) in pairs {
            guard let property = NavigatorProperty(rawValue: key) else { continue }
            guard value.signature == property.declaration.signature else {
                throw .unexpectedReply("property \(key) came as '\(value.signature)', not '\(property.declaration.signature)'")
            }
            switch (property, value) {
            case (.revision, .uint64(let revision)): properties.revision = revision
            case (.depth, .uint32(let depth)): properties.depth = depth
            case (.top, .string(let top)): properties.top = top
            case (.topID, .string(let id)): properties.topID = id
            case (.selectedTab, .string(let tab)): properties.selectedTab = tab
            case (.tabs, _): properties.tabs = value.strings ?? []
            case (.canUndo, .boolean(let flag)): properties.canUndo = flag
            case (.canRedo, .boolean(let flag)): properties.canRedo = flag
            case (.states, _): properties.states = Dictionary((value.stringPairs ?? []), uniquingKeysWith: { _, last in last })
            case (.version, .string(let version)): properties.version = version
            case (.facts, _): properties.facts = try decode { () throws(DBusError) in try Params(dbusValue: value) }
            case (.access, _):
                properties.access = Dictionary((Navigator.accessLists(value) ?? []).map { ($0.key, $0.entries) }) { _, last in last }
            default: break
            }
        }
        return properties
    }
}
