import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl routes`: GetRoutes.
struct Routes: Listing {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("routes")
    static let abstract = "List the route graph's routes."

    @OptionGroup var options: GlobalOptions
    @Flag(help: ArgumentHelp("Print only the names, one a line (for shell completion).", visibility: .hidden))
    var names = false

    var request: NavigatorRequest<[RouteInfo]> { .getRoutes }
    static func json(_ route: RouteInfo) -> JSONValue { route.json }
    func names(of routes: [RouteInfo]) -> [String] { routes.map(\.name) }

    func lines(_ routes: [RouteInfo], session: Session) -> [String] {
        zip(routes.map(\.name).paddedColumn, routes).map { column, route in
            var line = column + "  " + route.presentations.joined(separator: ",")
            if let title = route.title { line += "  \"\(title)\"" }
            for name in route.params.keys.sorted() {
                line += "  \(name):\(route.params[name]!)\(route.required.contains(name) ? "" : "?")"
            }
            if let link = route.link { line += "  link \(link)" }
            for key in route.hints.keys.sorted() { line += "  \(key)=\(route.hints[key]!.text)" }
            return line
        }
    }
}

extension RouteInfo {
    /// `{"name", "title", "params": {name: type}, "required", "presentations", "link", "hints": {…}}`.
    var json: JSONValue {
        .object([
            ("name", .string(name)), ("title", title.map(JSONValue.string) ?? .null),
            ("params", .object(params.keys.sorted().map { ($0, .string(params[$0]!)) })),
            ("required", .array(required.map(JSONValue.string))),
            ("presentations", .array(presentations.map(JSONValue.string))),
            ("link", link.map(JSONValue.string) ?? .null), ("hints", hints.json),
        ])
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
