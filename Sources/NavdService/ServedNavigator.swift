import DBus
import NavigatorProtocol
import Navigation

/// One navigator navd serves: the default one at `/org/navd/Navigator1` or an app's at
/// `/org/navd/Navigator1/apps/NAME`. Each has its own graph, state and store; the daemon's one
/// thread owns them all.
final class ServedNavigator {
    /// The app's name; nil for the default navigator.
    let app: String?
    /// The object it is served at.
    let path: ObjectPath
    /// The route file its graph was read from; nil for the embedded demo graph.
    var routeFile: String?
    /// The bytes of the route file as last loaded (an unchanged file is not parsed again).
    var routeFileBytes: [UInt8]?
    /// The graph and the state.
    var coordinator: Coordinator
    /// Where the state is kept; nil for an ephemeral navd.
    let store: StateStore?
    /// Whether the state came from disk (start-up cause `restore`) or is fresh (`start`).
    let restored: Bool
    /// Properties changed by pending calls (or a reload), announced with one `PropertiesChanged`.
    var pendingProperties: Set<NavigatorProperty> = []

    init(app: String?, path: ObjectPath, routeFile: String?, routeFileBytes: [UInt8]?, coordinator: Coordinator,
         store: StateStore?, restored: Bool) {
        self.app = app
        self.path = path
        self.routeFile = routeFile
        self.routeFileBytes = routeFileBytes
        self.coordinator = coordinator
        self.store = store
        self.restored = restored
    }

    /// How logs name it: "the default navigator" or "app 'NAME'".
    var label: String { app.map { "app '\($0)'" } ?? "the default navigator" }

    /// A log line's prefix: empty for the default navigator, "app 'NAME': " for an app.
    var logPrefix: String { app.map { "app '\($0)': " } ?? "" }
}
