// Resolving Open's target: a named state, a generic path, or a declared link pattern, in that order.

extension RouteGraph {
    /// The stack `target` (a state name or a link, optionally `navd:`-prefixed) stands for.
    func resolveTarget(_ target: String) throws(NavigationError) -> LinkPlan {
        let bare = target.hasPrefix("navd:") ? String(target.dropFirst(5)) : target
        if let link = states[bare] {
            do {
                return try resolveLink(link)
            } catch {
                throw error.prefixed("state '\(bare)' stands for '\(link)': ")
            }
        }
        return try resolveLink(bare)
    }

    /// `BadTarget`, `UnknownTab` or `InvalidParams` unless `link` opens a stack (the loader checks named states so).
    package func checkLinkOpens(_ link: String) throws(NavigationError) {
        _ = try resolveLink(link)
    }

    /// The stack `link` (a generic path or a path matching a declared pattern) stands for.
    func resolveLink(_ target: String) throws(NavigationError) -> LinkPlan {
        let link = target.hasPrefix("navd:") ? String(target.dropFirst(5)) : target
        guard link.hasPrefix("/") else {
            let stateNames = states.keys.sorted().joined(separator: ", ")
            let known = stateNames.isEmpty ? "there are no named states" : "states: \(stateNames)"
            let what = link.isEmpty ? "an empty target" : "'\(link)'"
            throw .badTarget("\(what) is neither a named state (\(known)) nor a link starting with '/' such as \(exampleLink)")
        }
        let segments = link.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        // A path whose segments all name a tab and routes is a generic path: its errors are final.
        // Otherwise it may still match a declared pattern; if none matches, the generic reading's error stands.
        let structure: GenericPath
        do {
            structure = try genericPath(link, segments)
        } catch {
            for name in routeOrder {
                guard let spec = routes[name], let pattern = spec.link.flatMap(LinkPattern.parse) else { continue }
                if let plan = try match(link, segments, against: pattern, of: spec) { return plan }
            }
            throw error
        }
        return try resolveGenericPath(link, structure)
    }

    var exampleLink: String {
        isTabbed ? "/\(tabs[0].name)" : "/\(rootRoute ?? "")"
    }

    /// A generic path's tab and its segments' routes, each with its still unparsed `;key=value` text.
    struct GenericPath {
        var tabIndex: Int
        var segments: [(route: RouteSpec, text: Substring)]
    }

    /// Reads `link` as `/TAB/ROUTE;key=value/…` (no TAB segment when untabbed) as far as names go:
    /// `UnknownTab` or `BadTarget` when a segment is empty or names no tab or route.
    func genericPath(_ link: String, _ segments: [Substring]) throws(NavigationError) -> GenericPath {
        var routeSegments = segments[...]
        var tabIndex = 0
        if isTabbed {
            let tabName = String(segments[0])
            if tabName.isEmpty {
                throw .badTarget("'\(link)' has an empty first segment; it should name a tab: \(tabs.map(\.name).joined(separator: ", "))")
            }
            guard let index = self.tabIndex(named: tabName) else {
                throw .unknownTab("'\(link)' starts with '\(tabName)', which is no tab; tabs: \(tabs.map(\.name).joined(separator: ", "))")
            }
            tabIndex = index
            routeSegments = segments.dropFirst()
        } else if link == "/" {
            routeSegments = []
        }
        var result: [(route: RouteSpec, text: Substring)] = []
        for (offset, segment) in routeSegments.enumerated() {
            if segment.isEmpty {
                throw .badTarget("segment \(offset + 1 + (isTabbed ? 1 : 0)) of '\(link)' is empty; remove the doubled or trailing '/'")
            }
            let routePart = segment.prefix { $0 != ";" }
            guard let name = PercentDecoding.decode(routePart), let spec = routes[name] else {
                throw .badTarget("segment '\(routePart)' of '\(link)' names no route; routes: \(routeOrder.joined(separator: ", "))")
            }
            result.append((spec, segment))
        }
        return GenericPath(tabIndex: tabIndex, segments: result)
    }

    /// The plan for a generic path: params parsed (`BadTarget`, `InvalidParams`), then presentations checked.
    func resolveGenericPath(_ link: String, _ path: GenericPath) throws(NavigationError) -> LinkPlan {
        var raws: [[(String, String)]] = []
        for item in path.segments {
            raws.append(try parseSegment(item.text, in: link).raw)
        }
        var screens: [(route: String, params: [String: ParamValue])] = []
        for (item, raw) in zip(path.segments, raws) {
            screens.append((item.route.name, try linkParams(raw, for: item.route, in: link)))
        }
        let root = rootRoute(ofTab: path.tabIndex)
        if let first = screens.first, first.route == root, first.params.isEmpty {
            screens.removeFirst()
        }
        for screen in screens {
            try checkPresentable(screen.route, as: .push, context: "'\(link)' pushes it")
        }
        return LinkPlan(tabIndex: path.tabIndex, screens: [(root, [:])] + screens)
    }

    /// `ROUTE;key=value;…` split and percent-decoded, or `BadTarget`.
    func parseSegment(_ segment: Substring, in link: String) throws(NavigationError) -> (route: String, raw: [(String, String)]) {
        let parts = segment.split(separator: ";", omittingEmptySubsequences: false)
        guard let route = PercentDecoding.decode(parts[0]), !route.isEmpty else {
            throw .badTarget("segment '\(segment)' of '\(link)' has a bad route name (empty or bad percent-encoding)")
        }
        var raw: [(String, String)] = []
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else {
                throw .badTarget("'\(part)' in segment '\(segment)' of '\(link)' is not key=value")
            }
            guard let key = PercentDecoding.decode(part[..<equals]), let value = PercentDecoding.decode(part[part.index(after: equals)...]) else {
                throw .badTarget("'\(part)' in segment '\(segment)' of '\(link)' has bad percent-encoding; write %XX with two hex digits of UTF-8")
            }
            if key.isEmpty { throw .badTarget("'\(part)' in segment '\(segment)' of '\(link)' has an empty key") }
            if raw.contains(where: { $0.0 == key }) {
                throw .badTarget("param '\(key)' is given twice in segment '\(segment)' of '\(link)'")
            }
            raw.append((key, value))
        }
        return (route, raw)
    }

    /// Typed params from a link's text values, checked against `spec`, or `InvalidParams`.
    func linkParams(_ raw: [(String, String)], for spec: RouteSpec, in link: String) throws(NavigationError) -> [String: ParamValue] {
        try Self.checkParams(
            raw, against: spec.declaration, of: "route '\(spec.name)'", context: " (in '\(link)')",
            missingHint: { key in "; add ;\(key)=VALUE to its segment in '\(link)'" }
        ) { key, text, type throws(NavigationError) in
            guard let value = Self.parseLinkValue(text, as: type) else {
                let form = switch type {
                case .int: "a decimal whole number"
                case .double: "a decimal number"
                case .bool: "true or false"
                case .string: "text"
                }
                throw .invalidParams("param '\(key)' of route '\(spec.name)' must be \(type.rawValue) (\(form)), not '\(text)' (in '\(link)')")
            }
            return value
        }
    }

    /// A link's text value parsed as `type`: decimal numbers, `true`/`false`.
    static func parseLinkValue(_ text: String, as type: ParamType) -> ParamValue? {
        switch type {
        case .string: return .string(text)
        case .bool: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .int: return Int64(text).map(ParamValue.int)
        case .double:
            let decimal = !text.isEmpty && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            }
            return decimal ? Double(text).map(ParamValue.double) : nil
        }
    }

    /// The plan for `link` when it matches `pattern` (declared by `spec`), nil when it does not match.
    func match(_ link: String, _ segments: [Substring], against pattern: [LinkPattern], of spec: RouteSpec) throws(NavigationError) -> LinkPlan? {
        guard segments.count == pattern.count else { return nil }
        var raw: [(String, String)] = []
        for (segment, part) in zip(segments, pattern) {
            switch part {
            case .literal(let text): if segment != text { return nil }
            case .param(let name):
                if segment.isEmpty { return nil }
                guard let value = PercentDecoding.decode(segment) else {
                    throw .badTarget("'\(segment)' in '\(link)' has bad percent-encoding; write %XX with two hex digits of UTF-8")
                }
                raw.append((name, value))
            }
        }
        let params = try linkParams(raw, for: spec, in: link)
        let tabIndex = spec.linkTab.flatMap { self.tabIndex(named: $0) } ?? 0
        let root = rootRoute(ofTab: tabIndex)
        if spec.name == root {
            return LinkPlan(tabIndex: tabIndex, screens: [(spec.name, params)])
        }
        try checkPresentable(spec.name, as: .push, context: "link '\(spec.link ?? "")' pushes it")
        return LinkPlan(tabIndex: tabIndex, screens: [(root, [:]), (spec.name, params)])
    }
}
