import DBus

/// A property of `org.navd.Navigator1`, all read-only and announced with `PropertiesChanged`.
public enum NavigatorProperty: String, Hashable, Sendable, CaseIterable {
    /// `Revision` (t): the current revision.
    case revision = "Revision"
    /// `Depth` (u): the number of entries in the path.
    case depth = "Depth"
    /// `Top` (s): the route of the screen on top.
    case top = "Top"
    /// `TopId` (s): the id of the screen on top.
    case topID = "TopId"
    /// `SelectedTab` (s): the selected tab, '' when not tabbed.
    case selectedTab = "SelectedTab"
    /// `Tabs` (as): the tab names in order.
    case tabs = "Tabs"
    /// `CanUndo` (b).
    case canUndo = "CanUndo"
    /// `CanRedo` (b).
    case canRedo = "CanRedo"
    /// `States` (a{ss}): the named states and their links.
    case states = "States"
    /// `Version` (s): navd's version.
    case version = "Version"
    /// `Facts` (a{sv}): every declared fact and its value.
    case facts = "Facts"
    /// `Access` (a{sas}): the route file's `access:` keys as written; `{}` without one.
    case access = "Access"
    /// `BackTarget` (sss): the id, route and presentation of the screen `Back` would leave on top,
    /// ('', '', '') where `Back` would answer `AtRoot`.
    case backTarget = "BackTarget"

    /// The property's D-Bus name.
    public var name: String { rawValue }

    /// The property's declaration, as introspection shows it.
    public var declaration: PropertyDeclaration {
        let (signature, documentation): (String, String) =
            switch self {
            case .revision: ("t", "The current revision.")
            case .depth: ("u", "The number of entries in the path.")
            case .top: ("s", "The route of the screen on top.")
            case .topID: ("s", "The id of the screen on top.")
            case .selectedTab: ("s", "The selected tab, '' when not tabbed.")
            case .tabs: ("as", "The tab names in order, empty when not tabbed.")
            case .canUndo: ("b", "Whether Undo would succeed.")
            case .canRedo: ("b", "Whether Redo would succeed.")
            case .states: ("a{ss}", "The named states and the links they stand for.")
            case .version: ("s", "navd's version.")
            case .facts: (WireSignature.params.rawValue, "Every declared fact and its current value.")
            case .access: ("a{sas}", "Who may change and read this navigator: the route file's access: keys as written; {} without one.")
            case .backTarget:
                (WireSignature.backTarget.rawValue,
                 "The id, route and presentation of the screen Back would leave on top; ('', '', '') where Back would answer AtRoot.")
            }
        return PropertyDeclaration(name, signature, access: .read, emitsChangedSignal: true, documentation: documentation)
    }
}
