import Navigation

/// The keys a route file's mappings accept, by where they are written: the reader checks each of these
/// mappings against its list here, and navd.routes(5) documents every key (a test compares the two).
/// The actions' verbs and their keys are declared with the actions (`RouteFileReader+Handlers.swift`).
public enum RouteFileKeys {
    /// The top level of a route file.
    public static let topLevel = ["tabs", "selected-tab", "root", "routes", "states", "limits", "facts", "flows", "guards", "on", "access"]
    /// One entry of `tabs:`.
    public static let tab = ["name", "root", "on"]
    /// One route under `routes:`.
    public static let route = ["title", "params", "presentations", "link", "tab", "hints", "requires", "on"]
    /// One param declared in long form (`id: { type: int, required: true }`).
    public static let param = ["type", "required"]
    /// `limits:`, named as `Limits.Key` names them.
    public static let limits = Limits.Key.allCases.map(\.rawValue)
    /// One fact under `facts:`.
    public static let fact = ["type", "default"]
    /// One flow under `flows:`.
    public static let flow = ["start", "presentation", "params", "outputs", "on"]
    /// One output under a flow's `outputs:`.
    public static let flowOutput = ["params"]
    /// One guard under `guards:`.
    public static let guardRule = ["start", "resume-on"]
    /// `access:`, who may change and who may read the navigator.
    public static let access = ["change", "read"]

    /// Every list above with the subsection of navd.routes(5) that documents it.
    public static let all: [(place: String, keys: [String])] = [
        ("Top level", topLevel), ("Tabs", tab), ("Routes", route), ("Params", param), ("Limits", limits),
        ("Facts", fact), ("Flows", flow), ("Flows", flowOutput), ("Guards", guardRule), ("Access", access),
    ]
}
