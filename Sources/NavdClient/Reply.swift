import DBus

/// Reads the contract's reply shapes; every mismatch throws `.unexpectedReply` naming what was expected.
enum Reply {
    static func fail(_ what: String) -> NavigatorError { .unexpectedReply("expected \(what)") }

    static func revision(_ values: [DBusValue]) throws(NavigatorError) -> UInt64 {
        guard let first = values.first, case .uint64(let revision) = first else { throw fail("(t revision)") }
        return revision
    }

    static func addedScreen(_ values: [DBusValue]) throws(NavigatorError) -> AddedScreen {
        guard values.count >= 2, case .uint64(let revision) = values[0], case .string(let id) = values[1] else {
            throw fail("(t revision, s id)")
        }
        return AddedScreen(revision: revision, id: id)
    }

    static func entry(_ value: DBusValue) throws(NavigatorError) -> Entry {
        guard case .structure(let fields) = value, fields.count == 4,
              case .string(let id) = fields[0], case .string(let route) = fields[1],
              case .string(let presentation) = fields[2]
        else { throw fail("Entry (sssa{sv})") }
        return Entry(id: id, route: route, presentation: presentation, params: Params(dbusDictionary: fields[3]))
    }

    static func path(_ value: DBusValue) throws(NavigatorError) -> [Entry] {
        guard case .array(_, let items) = value else { throw fail("Path a(sssa{sv})") }
        var entries: [Entry] = []
        for item in items { entries.append(try entry(item)) }
        return entries
    }

    /// `(t revision, s tab, a(sssa{sv}) path)`: GetState's reply and StackChanged's last three arguments.
    static func state(_ values: ArraySlice<DBusValue>) throws(NavigatorError) -> NavigationState {
        guard values.count == 3, case .uint64(let revision) = values[values.startIndex],
              case .string(let tab) = values[values.startIndex + 1]
        else { throw fail("(t revision, s tab, a(sssa{sv}) path)") }
        return NavigationState(revision: revision, tab: tab, path: try path(values[values.startIndex + 2]))
    }

    static func stateChange(_ values: [DBusValue]) throws(NavigatorError) -> StateChange {
        guard values.count == 4, case .string(let cause) = values[1] else {
            throw fail("StackChanged (t revision, s cause, s tab, a(sssa{sv}) path)")
        }
        let state = try state([values[0], values[2], values[3]][...])
        return StateChange(cause: cause, state: state)
    }

    static func tree(_ values: [DBusValue]) throws(NavigatorError) -> NavigationTree {
        guard values.count == 3, case .uint64(let revision) = values[0], case .string(let tab) = values[1],
              case .array(_, let items) = values[2]
        else { throw fail("(t revision, s tab, a(ssssa{sv}) nodes)") }
        var nodes: [Node] = []
        for item in items {
            guard case .structure(let fields) = item, fields.count == 5,
                  case .string(let id) = fields[0], case .string(let parent) = fields[1],
                  case .string(let kind) = fields[2], case .string(let name) = fields[3]
            else { throw fail("Node (ssssa{sv})") }
            nodes.append(Node(id: id, parentID: parent, kind: kind, name: name, params: Params(dbusDictionary: fields[4])))
        }
        return NavigationTree(revision: revision, tab: tab, nodes: nodes)
    }

    static func routes(_ values: [DBusValue]) throws(NavigatorError) -> [RouteInfo] {
        guard values.count == 1, case .array(_, let items) = values[0] else { throw fail("a(sa{sv}) routes") }
        var routes: [RouteInfo] = []
        for item in items {
            guard case .structure(let fields) = item, fields.count == 2, case .string(let name) = fields[0],
                  case .dictionary(_, _, let entries) = fields[1]
            else { throw fail("route (sa{sv})") }
            var route = RouteInfo(name: name)
            for entry in entries {
                guard case .string(let key) = entry.key else { continue }
                let value = unwrapVariant(entry.value)
                switch key {
                case "title": route.title = string(value)
                case "params": route.params = stringDictionary(value)
                case "required": route.required = strings(value)
                case "presentations": route.presentations = strings(value)
                case "link": route.link = string(value)
                default:
                    if let hint = ParamValue(dbusValue: value) { route.hints[key] = hint }
                }
            }
            routes.append(route)
        }
        return routes
    }

    static func history(_ values: [DBusValue]) throws(NavigatorError) -> [HistoryItem] {
        guard values.count == 1, case .array(_, let items) = values[0] else { throw fail("a(tsx) history") }
        var history: [HistoryItem] = []
        for item in items {
            guard case .structure(let fields) = item, fields.count == 3, case .uint64(let revision) = fields[0],
                  case .string(let cause) = fields[1], case .int64(let time) = fields[2]
            else { throw fail("history item (tsx)") }
            history.append(HistoryItem(revision: revision, cause: cause, timeMicroseconds: time))
        }
        return history
    }

    static func properties(_ values: [DBusValue]) throws(NavigatorError) -> NavigatorProperties {
        guard values.count == 1, case .dictionary(_, _, let entries) = values[0] else { throw fail("a{sv} properties") }
        var properties = NavigatorProperties()
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            let value = unwrapVariant(entry.value)
            switch (key, value) {
            case ("Revision", .uint64(let revision)): properties.revision = revision
            case ("Depth", .uint32(let depth)): properties.depth = depth
            case ("Top", .string(let top)): properties.top = top
            case ("TopId", .string(let id)): properties.topID = id
            case ("SelectedTab", .string(let tab)): properties.selectedTab = tab
            case ("Tabs", _): properties.tabs = strings(value)
            case ("CanUndo", .boolean(let flag)): properties.canUndo = flag
            case ("CanRedo", .boolean(let flag)): properties.canRedo = flag
            case ("States", _): properties.states = stringDictionary(value)
            case ("Version", .string(let version)): properties.version = version
            default: break
            }
        }
        return properties
    }

    static func unwrapVariant(_ value: DBusValue) -> DBusValue {
        if case .variant(let inner) = value { return unwrapVariant(inner) }
        return value
    }

    static func strings(_ value: DBusValue) -> [String] {
        guard case .array(_, let items) = unwrapVariant(value) else { return [] }
        return items.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
    }

    static func stringDictionary(_ value: DBusValue) -> [String: String] {
        guard case .dictionary(_, _, let entries) = unwrapVariant(value) else { return [:] }
        var result: [String: String] = [:]
        for entry in entries {
            if case .string(let key) = entry.key, case .string(let text) = unwrapVariant(entry.value) { result[key] = text }
        }
        return result
    }
}

extension Reply {
    static func string(_ value: DBusValue) -> String? {
        if case .string(let text) = unwrapVariant(value) { return text }
        return nil
    }
}
