import NavdClient

extension RecordedChange {
    /// The caller as `navctl history` and `navwatch --inspect` show it: `command(uid)`; `navd` for a
    /// reconcile no call asked for; `?` for what navd does not know (a change recorded before navd
    /// recorded callers, or a caller the bus would not describe).
    public var callerText: String {
        let uid = uint32(.uid)
        guard string(.sender) != nil || uid != nil else { return method.isEmpty ? "navd" : "?" }
        return "\(string(.command) ?? "?")(\(uid.map(String.init) ?? "?"))"
    }

    /// The tab and the route on top after the change: `tab/top`, or `top` when untabbed.
    public var afterText: String {
        let tab = string(.tab) ?? ""
        let top = string(.top) ?? "?"
        return tab.isEmpty ? top : "\(tab)/\(top)"
    }
}
