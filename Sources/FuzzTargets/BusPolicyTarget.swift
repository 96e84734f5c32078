import Navigation
import NavdService
import RouteFiles

/// The route file around `fuzzBusPolicy`'s input: a graph whose `access:` key is the input.
private let policyGraphPrefix = Array("root: home\nroutes:\n  home: { title: Home }\naccess:".utf8)

/// The `access:` read from `data` (the value of a route file's `access:` key) and the policy `navd
/// --print-bus-policy` prints for it, for the default navigator and an app without `access:`; nil when the
/// route file is refused. FuzzCorpusTests also gives these texts to dbus-daemon.
public func busPolicy(_ data: UnsafeRawBufferPointer) -> (Access, String)? {
    guard let graph = try? RouteGraph.load(bytes: policyGraphPrefix + Array(data), file: "fuzz.yaml"),
          let access = graph.access
    else { return nil }
    let navigators = [
        BusPolicy.Navigator(path: "/org/navd/Navigator1", label: "the default navigator", access: access),
        BusPolicy.Navigator(path: "/org/navd/Navigator1/apps/shop", label: "app 'shop'", access: nil),
    ]
    return (access, BusPolicy.text(navigators))
}

/// `access:` lists to `navd --print-bus-policy`'s text: the input is the value of a route file's `access:`
/// key (read by the route-file reader, names left unresolved as the printer prints them), printed for the
/// default navigator and an app (`BusPolicy.text`). The text of every accepted list is a well-formed bus
/// configuration (`BusConfigCheck`) that names each listed user and group in a policy of its own.
public func fuzzBusPolicy(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    guard let (access, text) = busPolicy(data) else { return }
    let config: BusConfigCheck.Element
    do { config = try BusConfigCheck.parse(text) } catch {
        throw PropertyViolation("the printed policy is not a bus configuration: \(error.description)")
    }
    let policies = config.children.map(\.attributes)
    for entry in (access.change ?? []) + (access.read ?? []) {
        let key = entry.kind == .user ? "user" : "group"
        try require(policies.contains { $0.count == 1 && $0.first! == (key, entry.name) }, "no policy for \(key) '\(entry.name)'")
    }
}
