// Resolving Open's target: a named state, a generic path, or a declared link pattern, in that order.

extension RouteGraph {
    /// The stack `target` (a state name or a link, optionally `navd:`-prefixed) stands for; `links` holds
    /// this graph's link patterns.
    func resolveTarget(_ target: String, links: LinkIndex) throws(NavigationError) -> LinkPlan {
        let bare = target.hasPrefix("navd:") ? String(target.dropFirst(5)) : target
        if let link = states[bare] {
            do {
                return try resolveLink(link, links: links)
            } catch {
                throw error.prefixed("state '\(bare)' stands for '\(link)': ")
            }
        }
        return try resolveLink(bare, links: links)
    }

    /// `BadTarget`, `UnknownTab` or `InvalidParams` unless `link` opens a stack (the loader checks named
    /// states and `open` actions so); `links` holds this graph's link patterns, built once for all checks.
    package func checkLinkOpens(_ link: String, links: LinkIndex) throws(NavigationError) {
        _ = try resolveLink(link, links: links)
    }

    /// The stack `link` (a generic path or a path matching a declared pattern) stands for; `links` holds
    /// this graph's link patterns.
    func resolveLink(_ target: String, links: LinkIndex) throws(NavigationError) -> LinkPlan {
        let link = target.hasPrefix("navd:") ? String(target.dropFirst(5)) : target
        guard link.hasPrefix("/") else {
            let stateNames = states.keys.sorted().joined(separator: ", ")
            let known = stateNames.isEmpty ? "there are no named states" : "states: \(stateNames)"
            let what = link.isEmpty ? "an empty target" : "'\(link)'"
            throw .badTarget("\(what) is neither a named state (\(known)) nor a link starting with '/' such as \(exampleLink)")
        }
        let segments = link.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        // A path whose segments all name a tab and routes is a generic path: its errors are final.
        // Otherwise it may still match a declared pattern: the first in routeOrder that matches decides.
        // If none matches, the generic reading's error stands.
        let structure: GenericPath
        do {
            structure = try genericPath(link, segments, links: links)
        } catch {
            if let found = try links.firstMatch(segments, in: link), let spec = routes[found.name],
                let plan = try match(link, segments, against: found.pattern, of: spec, links: links)
            {
                return plan
            }
            throw self.error(error, in: link)
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

    /// Why a link is no generic path. Cheap to make, since a declared pattern may still match the link:
    /// the message, which lists every tab or route, is made by `error(_:in:)` only when the problem stands.
    enum GenericPathProblem: Error {
        /// A tabbed app's link with an empty first segment.
        case emptyFirstSegment
        /// A tabbed app's link whose first segment names no tab.
        case noTab(String)
        /// An empty segment, counted from 1 (the tab's included).
        case emptySegment(Int)
        /// A segment whose route part (before any `;`) names no route.
        case noRoute(Substring)
    }

    /// `UnknownTab` or `BadTarget` for `problem` of `link`.
    func error(_ problem: GenericPathProblem, in link: String) -> NavigationError {
        switch problem {
        case .emptyFirstSegment:
            .badTarget("'\(link)' has an empty first segment; it should name a tab: \(tabs.map(\.name).joined(separator: ", "))")
        case .noTab(let tabName):
            .unknownTab("'\(link)' starts with '\(tabName)', which is no tab; tabs: \(tabs.map(\.name).joined(separator: ", "))")
        case .emptySegment(let number):
            .badTarget("segment \(number) of '\(link)' is empty; remove the doubled or trailing '/'")
        case .noRoute(let routePart):
            .badTarget("segment '\(routePart)' of '\(link)' names no route; routes: \(routeOrder.joined(separator: ", "))")
        }
    }

    /// Reads `link` as `/TAB/ROUTE;key=value/…` (no TAB segment when untabbed) as far as names go: a
    /// problem when a segment is empty or names no tab or route. `links` finds tabs by name.
    func genericPath(_ link: String, _ segments: [Substring], links: LinkIndex) throws(GenericPathProblem) -> GenericPath {
        var routeSegments = segments[...]
        var tabIndex = 0
        if isTabbed {
            let tabName = String(segments[0])
            if tabName.isEmpty { throw .emptyFirstSegment }
            guard let index = links.tabIndex(named: tabName) else { throw .noTab(tabName) }
            tabIndex = index
            routeSegments = segments.dropFirst()
        } else if link == "/" {
            routeSegments = []
        }
        var result: [(route: RouteSpec, text: Substring)] = []
        for (offset, segment) in routeSegments.enumerated() {
            if segment.isEmpty { throw .emptySegment(offset + 1 + (isTabbed ? 1 : 0)) }
            let routePart = segment.prefix { $0 != ";" }
            guard let name = PercentDecoding.decode(routePart), let spec = routes[name] else { throw .noRoute(routePart) }
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

    /// `BadTarget` for a param segment of `link` matching a pattern whose percent-encoding is bad.
    static func badEncoding(_ segment: Substring, in link: String) -> NavigationError {
        .badTarget("'\(segment)' in '\(link)' has bad percent-encoding; write %XX with two hex digits of UTF-8")
    }

    /// The plan for `link` when it matches `pattern` (declared by `spec`), nil when it does not match;
    /// `links` finds the link's tab by name.
    func match(
        _ link: String, _ segments: [Substring], against pattern: [LinkPattern], of spec: RouteSpec, links: LinkIndex
    ) throws(NavigationError) -> LinkPlan? {
        guard segments.count == pattern.count else { return nil }
        var raw: [(String, String)] = []
        for (segment, part) in zip(segments, pattern) {
            switch part {
            case .literal(let text): if segment != text { return nil }
            case .param(let name):
                if segment.isEmpty { return nil }
                guard let value = PercentDecoding.decode(segment) else { throw Self.badEncoding(segment, in: link) }
                raw.append((name, value))
            }
        }
        let params = try linkParams(raw, for: spec, in: link)
        let tabIndex = spec.linkTab.flatMap { links.tabIndex(named: $0) } ?? 0
        let root = rootRoute(ofTab: tabIndex)
        if spec.name == root {
            return LinkPlan(tabIndex: tabIndex, screens: [(spec.name, params)])
        }
        try checkPresentable(spec.name, as: .push, context: "link '\(spec.link ?? "")' pushes it")
        return LinkPlan(tabIndex: tabIndex, screens: [(root, [:]), (spec.name, params)])
    }
}
