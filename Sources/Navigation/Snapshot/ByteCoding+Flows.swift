// Binary forms of flow instances and what they keep (in snapshots):
//
// FlowInstance: string id, flow, first screen, tab; params; varint on-output count, then (string output, handler)
//   in ascending output order; byte 0 (nothing pending) or 1 and the request; string resume-on.
// Handler: byte 0 `none`, or 1 and a varint action count and the actions.
// Action: tag byte in declaration order (0 push … 14 set-facts), then its arguments in declaration order.
// ValueTemplate: tag byte 0 literal (a param value), 1 $event, 2 $screen, 3 $flow, 4 $output, then a string.
// PendingIntent: byte 0 event (string source, string event, input params) or 1 operation.

extension ByteWriter {
    mutating func flowInstance(_ instance: FlowInstance) {
        string(instance.id); string(instance.flow); string(instance.firstScreen); string(instance.tab)
        params(instance.params)
        dictionary(instance.onOutput) { writer, handler in writer.handler(handler) }
        if let pending = instance.pending { byte(1); request(pending) } else { byte(0) }
        string(instance.resumeOn)
    }

    mutating func handler(_ handler: Handler) {
        switch handler {
        case .ignore: byte(0)
        case .actions(let actions): byte(1); count(actions.count); for action in actions { self.action(action) }
        }
    }

    mutating func templates(_ templates: ParamTemplates) {
        dictionary(templates) { writer, template in
            switch template {
            case .literal(let value): writer.byte(0); writer.paramValue(value)
            case .event(let name): writer.byte(1); writer.string(name)
            case .screen(let name): writer.byte(2); writer.string(name)
            case .flow(let name): writer.byte(3); writer.string(name)
            case .output(let name): writer.byte(4); writer.string(name)
            }
        }
    }

    mutating func action(_ action: Action) {
        switch action {
        case .push(let route, let params): byte(0); string(route); templates(params)
        case .replace(let route, let params): byte(1); string(route); templates(params)
        case .present(let route, let style, let params): byte(2); string(route); string(style.rawValue); templates(params)
        case .pop: byte(3)
        case .popToRoot: byte(4)
        case .dismiss: byte(5)
        case .dismissAll: byte(6)
        case .back: byte(7)
        case .popTo(let target): byte(8); string(target)
        case .selectTab(let tab): byte(9); string(tab)
        case .open(let target): byte(10); string(target)
        case .setStack(let screens):
            byte(11); count(screens.count)
            for screen in screens { string(screen.route); templates(screen.params) }
        case .start(let flow, let params, let onOutput):
            byte(12); string(flow); templates(params)
            dictionary(onOutput) { writer, handler in writer.handler(handler) }
        case .finish(let output, let params): byte(13); string(output); templates(params)
        case .setFacts(let facts): byte(14); templates(facts)
        }
    }

    mutating func request(_ request: PendingIntent) {
        switch request {
        case .event(let source, let event, let params): byte(0); string(source); string(event); inputParams(params)
        case .operation(let op): byte(1); operation(op)
        }
    }
}

extension ByteReader {
    mutating func flowInstance() throws(SnapshotError) -> FlowInstance {
        let id = try string(), flow = try string(), firstScreen = try string(), tab = try string()
        let params = try params()
        var onOutput: [String: Handler] = [:]
        for _ in 0..<(try count()) { onOutput[try string()] = try handler(depth: 0) }
        let pending: PendingIntent? = try bool() ? try request() : nil
        return FlowInstance(id: id, flow: flow, firstScreen: firstScreen, tab: tab, params: params, onOutput: onOutput, pending: pending, resumeOn: try string())
    }

    mutating func handler(depth: Int) throws(SnapshotError) -> Handler {
        guard depth < maxDecodedNesting else { throw corrupt("handlers nest deeper than \(maxDecodedNesting) levels") }
        switch try byte() {
        case 0: return .ignore
        case 1:
            var actions: [Action] = []
            for _ in 0..<(try count()) { actions.append(try action(depth: depth + 1)) }
            return .actions(actions)
        case let tag: throw corrupt("unknown handler tag \(tag)")
        }
    }

    mutating func templates() throws(SnapshotError) -> ParamTemplates {
        var result: ParamTemplates = [:]
        for _ in 0..<(try count()) {
            let key = try string()
            let template: ValueTemplate
            switch try byte() {
            case 0: template = .literal(try paramValue())
            case 1: template = .event(try string())
            case 2: template = .screen(try string())
            case 3: template = .flow(try string())
            case 4: template = .output(try string())
            case let tag: throw corrupt("unknown value template tag \(tag)")
            }
            result[key] = template
        }
        return result
    }

    mutating func action(depth: Int) throws(SnapshotError) -> Action {
        switch try byte() {
        case 0: return .push(route: try string(), params: try templates())
        case 1: return .replace(route: try string(), params: try templates())
        case 2:
            let route = try string(), styleName = try string()
            guard let style = ModalStyle(rawValue: styleName) else { throw corrupt("unknown style '\(styleName)'") }
            return .present(route: route, style: style, params: try templates())
        case 3: return .pop
        case 4: return .popToRoot
        case 5: return .dismiss
        case 6: return .dismissAll
        case 7: return .back
        case 8: return .popTo(try string())
        case 9: return .selectTab(try string())
        case 10: return .open(try string())
        case 11:
            var screens: [ScreenTemplate] = []
            for _ in 0..<(try count()) { screens.append(ScreenTemplate(route: try string(), params: try templates())) }
            return .setStack(screens)
        case 12:
            let flow = try string(), params = try templates()
            var onOutput: [String: Handler] = [:]
            for _ in 0..<(try count()) { onOutput[try string()] = try handler(depth: depth + 1) }
            return .start(flow: flow, params: params, onOutput: onOutput)
        case 13: return .finish(output: try string(), params: try templates())
        case 14: return .setFacts(try templates())
        case let tag: throw corrupt("unknown action tag \(tag)")
        }
    }

    mutating func request() throws(SnapshotError) -> PendingIntent {
        switch try byte() {
        case 0: return .event(source: try string(), event: try string(), params: try inputParams())
        case 1: return .operation(try operation())
        case let tag: throw corrupt("unknown request tag \(tag)")
        }
    }
}
