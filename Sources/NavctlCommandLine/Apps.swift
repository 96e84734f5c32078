import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl apps`: the apps navd serves (ObjectManager's `GetManagedObjects` on the default object), one a
/// line: name, object path, revision, top. The default navigator is not an app and is not listed.
struct Apps: Listing {
    /// The fast path's reading of the plain form; the name is the command's.
    static let form = CommandForm.listing("apps", Apps.self)
    static let abstract = "List the apps navd serves: name, object path, revision, top."
    static let discussion = """
        One navigator per route file NAME.yaml in navd's apps folder; the default navigator \
        (/org/navd/Navigator1) is not an app and is not listed. --app does not change the listing.
        """

    @OptionGroup var options: GlobalOptions
    @Flag(help: ArgumentHelp("Print only the names, one a line (for shell completion).", visibility: .hidden))
    var names = false

    var request: NavigatorRequest<[AppInfo]> { .apps }
    static func json(_ app: AppInfo) -> JSONValue { app.json }
    func names(of apps: [AppInfo]) -> [String] { apps.map(\.name) }

    func lines(_ apps: [AppInfo], session: Session) -> [String] {
        if apps.isEmpty, !options.quiet {
            printError("navctl: navd serves no apps (an app is a route file NAME.yaml in navd's apps folder; then 'navctl reload')")
        }
        return Self.lines(apps)
    }

    /// `shop  /org/navd/Navigator1/apps/shop  12  cart`, the columns padded, then the app's access when it has
    /// one (`  access change: alice, @shop; read: @monitor`); `-` for the revision and top of an app the caller
    /// may not read.
    static func lines(_ apps: [AppInfo]) -> [String] {
        let names = apps.map(\.name).paddedColumn
        let paths = apps.map(\.path.rawValue).paddedColumn
        let revisions = apps.map { $0.isReadable ? String($0.revision) : "-" }.paddedColumn
        let tops = apps.map { $0.isReadable ? $0.top : "-" }
        let padded = apps.contains { !$0.accessText.isEmpty } ? tops.paddedColumn : tops
        return apps.indices.map { index in
            let access = apps[index].accessText
            let start = "\(names[index])  \(paths[index])  \(revisions[index])  "
            return access.isEmpty ? start + tops[index] : start + padded[index] + "  access " + access.terminalSafe
        }
    }
}
