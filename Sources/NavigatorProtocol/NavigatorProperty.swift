import DBus
import Navigation

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

// Each property's value, declared once beside the property: as a value (`Get`, `GetAll`) and written straight into
// a signal's body (`PropertiesChanged`), the same bytes (a test compares them for every property).

extension Coordinator {
    /// The current value of `property`.
    public func value(of property: NavigatorProperty) -> DBusValue {
        switch property {
        case .revision: .uint64(revision)
        case .depth: .uint32(UInt32(clamping: depth))
        case .top: .string(top.route)
        case .topID: .string(top.id)
        case .selectedTab: .string(selectedTab)
        case .tabs: .stringArray(tabs)
        case .canUndo: .boolean(canUndo)
        case .canRedo: .boolean(canRedo)
        case .states: .stringDictionary(namedStates.keys.sorted().map { ($0, namedStates[$0]!) })
        case .version: .string(Navigator.version)
        case .facts: facts.dbusValue
        case .access: Navigator.accessValue(graph.access)
        case .backTarget: BackTarget.dbusValue(backTarget)
        }
    }

    /// The current value of `property` as a variant, written into a signal's body: the bytes `value(of:)`
    /// marshals to.
    public func writeValue(of property: NavigatorProperty, into body: inout BodyWriter) {
        switch property {
        case .revision: body.variant(uint64: revision)
        case .depth: body.variant(uint32: UInt32(clamping: depth))
        case .top: body.variant(string: top.route)
        case .topID: body.variant(string: top.id)
        case .selectedTab: body.variant(string: selectedTab)
        case .canUndo: body.variant(boolean: canUndo)
        case .canRedo: body.variant(boolean: canRedo)
        case .version: body.variant(string: Navigator.version)
        case .tabs:
            body.variant(.stringArray(tabs))
        case .states:
            body.variant(.stringDictionary(namedStates.keys.sorted().map { ($0, namedStates[$0]!) }))
        case .facts:
            body.variant(facts.dbusValue)
        case .access:
            body.variant(Navigator.accessValue(graph.access))
        case .backTarget:
            body.variant(signature: WireSignature.backTarget)
            BackTarget.write(backTarget, into: &body)
        }
    }
}

extension NavigatorProperty {
    /// The property that publishes a value the model reports as changed.
    public init(_ changed: ChangedProperty) {
        switch changed {
        case .revision: self = .revision
        case .depth: self = .depth
        case .top: self = .top
        case .topID: self = .topID
        case .selectedTab: self = .selectedTab
        case .canUndo: self = .canUndo
        case .canRedo: self = .canRedo
        case .facts: self = .facts
        case .tabs: self = .tabs
        case .states: self = .states
        case .backTarget: self = .backTarget
        }
    }
}
