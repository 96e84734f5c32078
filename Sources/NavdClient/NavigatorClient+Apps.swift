import DBus

extension NavigatorClient {
    /// The apps navd serves (`GetManagedObjects` on the default object, whatever navigator this
    /// client acts on), sorted by name. The default navigator is not an app and is not listed.
    public func apps() throws(NavigatorError) -> [AppInfo] {
        try Reply.apps(call(
            interface: StandardInterfaces.objectManager.name, "GetManagedObjects", [], path: Navigator.objectPath))
    }

    /// `Reload`: on the default navigator every route file, on an app that app's file; returns this
    /// navigator's revision after it. A file that does not load is `.remote` with
    /// `InvalidRouteFile`, whose message names each refused file as `FILE:LINE: KEY: PROBLEM`, one a line.
    public func reload() throws(NavigatorError) -> UInt64 {
        try Reply.revision(call(.reload))
    }
}

extension AsyncNavigator {
    /// The apps navd serves (`GetManagedObjects` on the default object, whatever navigator this
    /// navigator acts on), sorted by name. The default navigator is not an app and is not listed.
    public func apps() async throws(NavigatorError) -> [AppInfo] {
        try Reply.apps(await call(
            interface: StandardInterfaces.objectManager.name, "GetManagedObjects", [], path: Navigator.objectPath))
    }

    /// `Reload`: on the default navigator every route file, on an app that app's file; returns this
    /// navigator's revision after it. A file that does not load is `.remote` with
    /// `InvalidRouteFile`, whose message names each refused file as `FILE:LINE: KEY: PROBLEM`, one a line.
    public func reload() async throws(NavigatorError) -> UInt64 {
        try Reply.revision(await call(.reload))
    }
}
