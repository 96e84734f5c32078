import DBus

// The client's values read from the wire, by NavigatorProtocol's decoders: every mismatch throws `InvalidArgs`
// saying what was expected and what came (a request turns it into `.unexpectedReply`; a signal that does not fit
// is dropped). Nothing is read as a default value.

extension VisibleState {
    /// Reads `(t revision, s tab, a(sssa{sv}) path)`: GetState's reply and StackChanged's last three arguments.
    init(dbusValues values: ArraySlice<DBusValue>) throws(DBusError) {
        guard values.count == 3 else {
            throw .invalidArgs("expected a state (revision, tab, path), got \(values.count) values")
        }
        let start = values.startIndex
        self.init(
            revision: try values[start].requiredUInt64("revision"), tab: try values[start + 1].requiredString("tab"),
            path: try [Entry](dbusValue: values[start + 2]))
    }
}

extension StateChange {
    /// Reads StackChanged `(t revision, s cause, s tab, a(sssa{sv}) path)`.
    init(stackChanged values: [DBusValue]) throws(DBusError) {
        guard values.count == 4 else {
            throw .invalidArgs("StackChanged has \(values.count) values, not 4 (revision, cause, tab, path)")
        }
        let cause = try values[1].requiredString("cause")
        self.init(cause: cause, state: try VisibleState(dbusValues: [values[0], values[2], values[3]][...]))
    }
}

extension FlowFinished {
    /// Reads FlowFinished `(t revision, s flow_id, s flow, s output, a{sv} params)`.
    init(dbusValues values: [DBusValue]) throws(DBusError) {
        let (revision, end) = try FlowEnd.flowFinished(dbusValues: values)
        self.init(revision: revision, end: end)
    }
}

extension NavigatorProperties {
    /// Reads the navigator's properties from `a{sv}` (GetAll's reply, an app's entry in GetManagedObjects):
    /// every declared property must be there with its declared type; properties it does not know are skipped.
    /// With `accessOnly`, only `Access` must be there: what navd shows a caller that may not read the navigator.
    init(dbusValue: DBusValue, accessOnly: Bool = false) throws(DBusError) {
        guard let pairs = dbusValue.stringKeyedPairs else {
            throw .invalidArgs("expected properties a{sv}, got a value of type '\(dbusValue.signature)'")
        }
        var given: [NavigatorProperty: DBusValue] = [:]
        for (key, value) in pairs {
            if let property = NavigatorProperty(rawValue: key) { given[property] = value }
        }
        func read<T>(_ property: NavigatorProperty, _ extract: (DBusValue) -> T?) throws(DBusError) -> T {
            let declared = property.declaration.signature
            guard let value = given[property] else {
                throw .invalidArgs("expected property \(property.name) of type '\(declared)', got none")
            }
            guard value.signature == declared, let read = extract(value) else {
                throw .invalidArgs("expected property \(property.name) of type '\(declared)', got '\(value.signature)'")
            }
            return read
        }
        self.init()
        access = Dictionary(try read(.access, Navigator.accessLists).map { ($0.key, $0.entries) }) { _, last in last }
        if accessOnly { return }
        revision = try read(.revision, \.uint64Value)
        depth = try read(.depth, \.uint32Value)
        top = try read(.top, \.stringValue)
        topID = try read(.topID, \.stringValue)
        selectedTab = try read(.selectedTab, \.stringValue)
        tabs = try read(.tabs, \.strings)
        canUndo = try read(.canUndo, \.boolValue)
        canRedo = try read(.canRedo, \.boolValue)
        states = Dictionary(try read(.states, \.stringPairs), uniquingKeysWith: { _, last in last })
        version = try read(.version, \.stringValue)
        facts = try Params(dbusValue: try read(.facts) { $0 })
        backTarget = try BackTarget.read(dbusValue: try read(.backTarget) { $0 })
    }
}
