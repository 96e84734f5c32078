import Navigation

// Reading declared params (a route's, a flow's, an output's) and limits.

extension RouteFileReader {
    /// A `params:` mapping: name to type, or to `{type, required}`.
    func readParams(_ node: YAMLNode, _ path: String) throws(RouteFileError) -> ParamDeclaration {
        var declaration = ParamDeclaration()
        let pairs = try mapping(node, path, keys: [])
        declaration.types.reserveCapacity(pairs.count)
        for (paramName, paramNode) in pairs {
            _ = try name(paramName, join(path, paramName), paramNode, what: "param")
            let (type, isRequired) = try readParam(paramNode, join(path, paramName))
            declaration.types[paramName] = type
            if isRequired { declaration.required.insert(paramName) }
        }
        declaration.order = pairs.map(\.0)
        return declaration
    }

    func readParam(_ node: YAMLNode, _ path: @autoclosure () -> String) throws(RouteFileError) -> (ParamType, Bool) {
        func parseType(_ text: String, _ typeNode: YAMLNode) throws(RouteFileError) -> ParamType {
            guard let type = ParamType(rawValue: text) else {
                throw fail(path(), typeNode, "unknown type '\(text)'; use string, int, double or bool")
            }
            return type
        }
        if case .scalar = node {
            return (try parseType(try string(node, path()), node), false)
        }
        var type: ParamType?
        var isRequired = false
        for (key, value) in try mapping(node, path(), keys: RouteFileKeys.param) {
            if key == "type" { type = try parseType(try string(value, join(path(), key)), value) }
            if key == "required" {
                guard case .scalar = value, let flag = value.bool else {
                    throw fail(join(path(), key), value, "expected true or false")
                }
                isRequired = flag
            }
        }
        guard let type else {
            throw fail(path(), node, "a param needs `type: string|int|double|bool`")
        }
        return (type, isRequired)
    }

    /// The first of `declaration`'s required params, in declared order, that `isGiven` says is
    /// missing. It costs a look at each required param unless one is missing (then one pass over
    /// the declaration, for the error): checking many actions or flows against one route with many
    /// optional params stays linear in the file.
    static func firstMissing(_ declaration: ParamDeclaration, isGiven: (String) -> Bool) -> String? {
        guard declaration.required.contains(where: { !isGiven($0) }) else { return nil }
        return declaration.order.first { declaration.required.contains($0) && !isGiven($0) }
    }

    /// `limits:`: each key of `Limits.Key`, checked against its bounds.
    func readLimits(_ node: YAMLNode) throws(RouteFileError) -> Limits {
        var limits = Limits()
        for (key, value) in try mapping(node, "limits", keys: RouteFileKeys.limits) {
            guard let limit = Limits.Key(rawValue: key) else { continue }
            let path = join("limits", key)
            let number = try integer(value, path)
            if let problem = limit.problem(with: number) { throw fail(path, value, problem) }
            limits[limit] = number
        }
        return limits
    }
}
