// The static checks of a call, in the contract's order: sizes, names, params, presentation.

extension RouteGraph {
    /// `LimitExceeded` when `text` (a route, tab, target or key string) is longer than allowed.
    func checkLength(_ text: String, _ what: String) throws(NavigationError) {
        let bytes = text.utf8.count
        if bytes > limits.maxStringBytes {
            throw .limitExceeded("the \(what) is \(bytes) bytes long; the limit is \(limits.maxStringBytes)")
        }
    }

    /// `LimitExceeded` when a key is too long or all `paramSets` and `emptySets` empty ones together exceed
    /// `maxParamsBytes`.
    func checkParamSizes(_ paramSets: [InputParams], emptySets: Int = 0) throws(NavigationError) {
        var total = emptySets * InputValue.estimatedEncodedSize(of: [:])
        for params in paramSets {
            // The usual case costs one pass and no string building; a violation is reported for the
            // first offending key in sorted order, so the message does not depend on hash order.
            if params.keys.contains(where: { $0.utf8.count > limits.maxStringBytes }) {
                for key in params.keys.sorted() { try checkLength(key, "param key '\(key.prefix(32))…'") }
            }
            total += InputValue.estimatedEncodedSize(of: params)
        }
        if total > limits.maxParamsBytes {
            throw .limitExceeded("the params take about \(total) bytes encoded; the limit is \(limits.maxParamsBytes)")
        }
    }

    /// The route named `name`, or `UnknownRoute`.
    func route(_ name: String) throws(NavigationError) -> RouteSpec {
        guard let spec = routes[name] else { throw unknownRoute(name) }
        return spec
    }

    /// `UnknownRoute` for `name`, listing the routes there are.
    func unknownRoute(_ name: String) -> NavigationError {
        .unknownRoute("no route '\(name)'; routes: \(routeOrder.joined(separator: ", "))")
    }

    /// `UnknownRoute` unless `name` is a route (`route(_:)` without copying its spec out).
    func checkRoute(_ name: String) throws(NavigationError) {
        if routes.index(forKey: name) == nil { throw unknownRoute(name) }
    }

    /// Whether route `name` exists and requires a param (read in place, the spec not copied).
    func requiresParams(_ name: String) -> Bool {
        guard let index = routes.index(forKey: name) else { return false }
        return !routes.values[index].declaration.required.isEmpty
    }

    /// The index of tab `name`, or `NotTabbed` / `UnknownTab`.
    func tab(_ name: String) throws(NavigationError) -> Int {
        guard isTabbed else {
            throw .notTabbed("this app is a single stack without tabs; there is no tab '\(name)' to select")
        }
        guard let index = tabIndex(named: name) else {
            throw .unknownTab("no tab '\(name)'; tabs: \(tabs.map(\.name).joined(separator: ", "))")
        }
        return index
    }

    /// Checks `params` against `spec`'s declaration and returns them as stored values, or `InvalidParams`.
    func checkParams(_ params: InputParams, for spec: RouteSpec) throws(NavigationError) -> [String: ParamValue] {
        try checkParams(params, against: spec.declaration, of: "route '\(spec.name)'")
    }

    /// Checks `params` against `declaration` (of `what`, such as "flow 'auth'") and returns them as stored
    /// values, or `InvalidParams`.
    func checkParams(
        _ params: InputParams, against declaration: ParamDeclaration, of what: @autoclosure () -> String
    ) throws(NavigationError) -> [String: ParamValue] {
        if params.isEmpty && declaration.required.isEmpty { return [:] }  // most screens: nothing to check
        let given = params.keys.sorted().map { ($0, params[$0]!) }
        return try Self.checkParams(given, against: declaration, of: what()) { key, value, type throws(NavigationError) in
            guard let converted = Self.convert(value, to: type) else {
                if case .variant = value {
                    throw .invalidParams("param '\(key)' of \(what()) is a variant holding a variant; send a plain \(type.rawValue) (\(type.acceptedDBusTypes))")
                }
                throw .invalidParams("param '\(key)' of \(what()) must be \(type.rawValue) (\(type.acceptedDBusTypes)), not \(value.kindDescription)")
            }
            return converted
        }
    }

    /// The checks a call's params and a link's share: each given key must be declared (else `InvalidParams`
    /// naming what `what` takes, `context` after the key), `convert` makes each value one of its declared type
    /// (or refuses it), and every required param must be given (`missingHint` of its key ends that refusal).
    static func checkParams<Value>(
        _ given: [(String, Value)], against declaration: ParamDeclaration, of what: @autoclosure () -> String, context: String = "",
        missingHint: (String) -> String = { _ in "" },
        convert: (String, Value, ParamType) throws(NavigationError) -> ParamValue
    ) throws(NavigationError) -> [String: ParamValue] {
        var checked: [String: ParamValue] = [:]
        for (key, value) in given {
            guard let type = declaration.types[key] else {
                let declared = declaration.order.isEmpty ? "it takes no params" : "its params: \(declaration.order.joined(separator: ", "))"
                throw .invalidParams("\(what()) has no param '\(key)'\(context); \(declared)")
            }
            checked[key] = try convert(key, value, type)
        }
        for key in declaration.order where declaration.required.contains(key) && checked[key] == nil {
            throw .invalidParams("\(what()) needs param '\(key)' (\(declaration.types[key]!.rawValue))\(missingHint(key))")
        }
        return checked
    }

    /// `value` as a stored value of `type`, or nil when it does not fit.
    static func convert(_ value: InputValue, to type: ParamType) -> ParamValue? {
        switch (type, value) {
        case (.string, .string(let text)): return .string(text)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, .int(let number)): return .int(number)
        case (.int, .uint(let number)): return number <= UInt64(Int64.max) ? .int(Int64(number)) : nil
        case (.double, .double(let number)): return .double(number.isNaN ? .nan : number)
        case (.double, .int(let number)): return .double(Double(number))
        case (.double, .uint(let number)): return .double(Double(number))
        default: return nil
        }
    }

    /// A new screen of `request`'s route, checked (names, then params); not yet placed.
    func makeScreen(_ route: String, _ params: InputParams, ids: inout IdCounter) throws(NavigationError) -> Screen {
        let spec = try self.route(route)
        let checked = try checkParams(params, for: spec)
        return Screen(id: ids.issue(), route: route, params: checked)
    }

    /// `NotPresentable` unless `route` allows `presentation` (`.root` is always allowed).
    func checkPresentable(_ route: String, as presentation: Presentation, context: String) throws(NavigationError) {
        guard presentation != .root, let spec = routes[route] else { return }
        if !spec.presentations.contains(presentation) {
            let allowed = spec.presentations.map(\.rawValue).sorted()
            let how = allowed.isEmpty ? "it can only be a root" : "it allows \(allowed.joined(separator: ", "))"
            throw .notPresentable("route '\(route)' cannot be shown as \(presentation.rawValue) (\(context)); \(how)")
        }
    }
}
