import Navigation

// What an action names, read against the graph: a route (its params and presentations), and the params it passes.

extension RouteFileReader {
    /// What an action needs of a route it names, taken from its `RouteSpec` once per route (not copied out of the
    /// graph for each action: a spec is a dozen references).
    final class RouteTarget {
        let declaration: ParamDeclaration
        let presentations: Set<Presentation>

        init(_ spec: RouteSpec) {
            declaration = spec.declaration
            presentations = spec.presentations
        }
    }

    /// The route `node` names: its name and what an action needs of it.
    func route(_ node: YAMLNode, _ path: @autoclosure () -> String, _ graph: RouteGraph) throws(RouteFileError) -> (name: String, target: RouteTarget) {
        let routeName = try string(node, path())
        if let target = routeTargets[routeName] { return (routeName, target) }
        guard let spec = graph.routes[routeName] else { throw fail(path(), node, "no route '\(routeName)' under `routes:`") }
        return (routeName, RouteTarget(spec))
    }

    /// A `params:` mapping of a handler, each value checked against `declaration` (of `owner`).
    func templates(
        _ node: YAMLNode?, _ path: @autoclosure () -> String, _ declaration: ParamDeclaration, _ owner: @autoclosure () -> String, _ place: HandlerPlace,
        near action: YAMLNode? = nil
    ) throws(RouteFileError) -> ParamTemplates {
        var result: ParamTemplates = [:]
        if let node, !isEmpty(node) {
            for (key, valueNode) in try mapping(node, path(), keys: []) {
                guard let type = declaration.types[key] else {
                    let declared = declaration.order.isEmpty ? "it takes no params" : "its params: \(declaration.order.joined(separator: ", "))"
                    throw fail(join(path(), key), valueNode, "\(owner()) has no param '\(key)'; \(declared)")
                }
                result[key] = try template(valueNode, join(path(), key), type, place)
            }
        }
        if let missing = Self.firstMissing(declaration, isGiven: { result[$0] != nil }) {
            throw fail(path(), node ?? action, "\(owner()) needs param '\(missing)' (\(declaration.types[missing]!.rawValue)); add it under `params:`")
        }
        return result
    }

    /// One value: a literal of `type`, or `$event.`, `$screen.`, `$flow.`, `$output.` NAME; `$$` is a literal `$`.
    func template(_ node: YAMLNode, _ path: @autoclosure () -> String, _ type: ParamType, _ place: HandlerPlace) throws(RouteFileError) -> ValueTemplate {
        if case .scalar(let scalar) = node, scalar.string.hasPrefix("$") {
            let text = scalar.string
            if text.hasPrefix("$$") {
                guard type == .string else { throw fail(path(), node, "'\(text)' is a string (a literal '$…'), but the value must be \(type.rawValue)") }
                return .literal(.string(String(text.dropFirst())))
            }
            let kinds: [(prefix: String, make: (String) -> ValueTemplate)] = [
                ("$event.", ValueTemplate.event), ("$screen.", ValueTemplate.screen), ("$flow.", ValueTemplate.flow), ("$output.", ValueTemplate.output),
            ]
            for kind in kinds where text.hasPrefix(kind.prefix) {
                let referenced = String(text.dropFirst(kind.prefix.count))
                _ = try name(referenced, path(), node, what: "referenced")
                if kind.prefix == "$output." {
                    guard let output = place.output else {
                        throw fail(path(), node, "'\(text)': $output. is only allowed inside `on-output`")
                    }
                    guard let declared = output.types[referenced] else {
                        throw fail(path(), node, "'\(text)': the output has no param '\(referenced)'\(output.order.isEmpty ? "" : "; its params: \(output.order.joined(separator: ", "))")")
                    }
                    guard declared == type else {
                        throw fail(path(), node, "'\(text)' is \(declared.rawValue), but the value must be \(type.rawValue)")
                    }
                }
                return kind.make(referenced)
            }
            throw fail(path(), node, "'\(text)' is not a reference; use $event.NAME, $screen.NAME, $flow.NAME or $output.NAME, or $$ for a literal '$'")
        }
        guard let value = literal(node, as: type) else {
            throw fail(path(), node, "expected a \(type.rawValue) value or a $ reference")
        }
        return .literal(value)
    }
}
