import JSON
import Navigation
import NavigatorProtocol

extension Recording {
    /// The recording as `navctl export --redact` writes it (docs/devtools.md): every param value in the
    /// requests and the results replaced by its placeholder (`ParamValue.placeholder`), `Open` targets by
    /// `openTarget` (which knows the graph's link patterns), the callers dropped, `redacted` true. Facts
    /// (`SetFacts`, op `setfacts`) and the route files' text are kept. The start state is the caller's to
    /// redact (`NavigationState.redactingParams()`).
    public func redacted(openTarget: (String) -> String) -> Recording {
        var copy = self
        copy.redacted = true
        copy.changes = changes.map { change in
            var change = change
            change.caller = nil
            change.path = change.path.map { Entry(id: $0.id, route: $0.route, presentation: $0.presentation, params: $0.params.placeholders) }
            change.arguments = change.arguments.map { Self.redacting($0, method: change.method, openTarget: openTarget) }
            return change
        }
        return copy
    }

    /// A call's recorded arguments with their param values and Open targets redacted.
    static func redacting(_ arguments: JSONValue, method: String, openTarget: (String) -> String) -> JSONValue {
        guard case .object(let members) = arguments else { return arguments }
        if method == NavigatorMethod.apply.name {
            return .object(members.map { key, value in
                guard key == "ops", case .array(let ops) = value else { return (key, value) }
                return (key, .array(ops.map { op in redactingOp(op, openTarget: openTarget) }))
            })
        }
        let declared = NavigatorMethod(name: method)?.declaration.inArguments ?? []
        return .object(members.map { key, value in
            let signature = declared.first { $0.name == key }?.signature
            if method == NavigatorMethod.open.name, key == "target", case .string(let target) = value { return (key, .string(openTarget(target))) }
            if signature == WireSignature.params, key != "facts" { return (key, placeholders(value)) }
            if signature == WireSignature.screens { return (key, redactingScreens(value)) }
            return (key, value)
        })
    }

    private static func redactingOp(_ op: JSONValue, openTarget: (String) -> String) -> JSONValue {
        guard case .object(let members) = op, case .string(let name)? = op["op"], let kind = OperationKind(rawValue: name) else { return op }
        return .object(members.map { key, value in
            switch kind.declaration.argument(key)?.kind {
            case .params? where key != "facts": (key, placeholders(value))
            case .screens?: (key, redactingScreens(value))
            case .string? where kind == .open && key == "target": (key, value.stringText.map { .string(openTarget($0)) } ?? value)
            default: (key, value)
            }
        })
    }

    private static func redactingScreens(_ screens: JSONValue) -> JSONValue {
        guard case .array(let items) = screens else { return placeholder(screens) }
        return .array(items.map { screen in
            guard case .object(let members) = screen else { return screen }
            return .object(members.map { key, value in key == "params" ? (key, placeholders(value)) : (key, value) })
        })
    }

    /// Every member's value of a params object replaced by its placeholder.
    private static func placeholders(_ params: JSONValue) -> JSONValue {
        guard case .object(let members) = params, params[TypedJSON.typeKey] == nil else { return placeholder(params) }
        return .object(members.map { ($0.0, placeholder($0.1)) })
    }

    /// The placeholder of one JSON value of the recording: of the same JSON type, every string made of `x`.
    static func placeholder(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(ParamValue.string(text).placeholder.json.stringText ?? "")
        case .int: .int(0)
        case .unsigned: .int(0)
        case .double: .double(0)
        case .bool: .bool(false)
        case .null: .null
        case .array(let items): .array(items.map(placeholder))
        case .object(let members):
            .object(members.map { key, member in key == TypedJSON.typeKey ? (key, member) : (key, placeholder(member)) })
        }
    }
}

extension JSONValue {
    /// The text of a string value; nil for anything else.
    var stringText: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }
}
