import DBus
import NavigatorProtocol
import Foundation
import RandomRouteGraphs
import TestSupport

/// One generated call and what may come of it.
struct GeneratedCall {
    /// The message to send.
    let message: Message
    /// `Interface.Member` (or `?.Member` without an interface), for the figures.
    let label: String
    /// Whether a success is allowed at all: a known method of the object, with its own signature.
    let mayAnswerSuccess: Bool
    /// Whether a success may change the tree (a mutating method of the contract).
    let mayChangeTree: Bool
}

/// Generates calls to navd from a seed: every method of the contract (events, flows and facts
/// included, `Reload` too) and unknown ones, every signature including wrong ones, random and
/// boundary values, to the navigator at `path` (the default one, or an app's) and to objects
/// navd does not serve (unknown apps among them).
struct BadCallGenerator {
    var rng: SeededGenerator
    /// The navigator the calls go to.
    let path: String
    /// Ids seen in the tree lately (PopTo targets), and the revision seen last (Apply's expectation).
    var knownIds: [String] = []
    var knownRevision: UInt64 = 1
    /// Values too deep for the DBus layer to send (refused before they reach the bus).
    private(set) var refusedBeforeSending = 0

    init(seed: UInt64, path: String = Navigator.objectPath.rawValue) {
        rng = SeededGenerator(seed: seed)
        self.path = path
        var standard = Self.standardMethods
        if path == Navigator.objectPath.rawValue { standard["org.freedesktop.DBus.ObjectManager"] = ["GetManagedObjects": ""] }
        standardMethodsHere = standard
    }

    /// The standard interfaces at `path`: the default object is also the ObjectManager.
    let standardMethodsHere: [String: [String: String]]

    /// The contract's methods and their in-signatures.
    static let contractMethods: [String: String] = Dictionary(uniqueKeysWithValues: NavigatorMethod.all.map {
        ($0.name, $0.declaration.inSignature.rawValue)
    })

    /// The methods that may change the tree.
    static let mutatingMethods: Set<String> = NavigatorMethod.treeChangingNames

    /// The standard interfaces on navd's object, their methods and in-signatures.
    static let standardMethods: [String: [String: String]] = [
        "org.freedesktop.DBus.Properties": ["Get": "ss", "GetAll": "s", "Set": "ssv"],
        "org.freedesktop.DBus.Introspectable": ["Introspect": ""],
        "org.freedesktop.DBus.Peer": ["Ping": "", "GetMachineId": ""],
    ]

    static let routes = [
        "red", "orange", "yellow", "green", "teal", "blue", "purple", "news-list", "news-item", "profile", "settings",
        "login", "forgot-password", "modal", "call-progress", "call-success", "call-error", "account",
    ]
    /// The demo graph's events, and some it does not handle.
    static let events = [
        "next", "root", "end", "show-modal", "close", "call", "succeeded", "failed", "retry", "account", "log-in", "logout",
        "forgot-password", "sent", "cancel", "", "fly", "Next", "none",
    ]
    static let opNames = [
        "push", "pop", "popto", "poptoroot", "replace", "setstack", "present", "dismiss", "dismissall", "back",
        "selecttab", "open", "Push", "undo", "redo", "", "jump", "apply", "gettree", "send", "send", "start", "finish",
        "setfacts", "setfacts", "Send", "resolve",
    ]
    static let links = [
        "root", "end", "/news/7", "navd:/news/7", "/rainbow/orange/yellow", "/news/abc", "/news/", "//", "navd:",
        "/rainbow/orange;x=%zz", "/rainbow/orange;x=1", "/profile/login", "/nope/red", "/news/news-item;id=%",
        "/news/99999999999999999999999", "/news/news-item;id=1.5", "/rainbow/red", "/rainbow/" + Array(repeating: "orange", count: 200).joined(separator: "/"),
        "navd:navd:/news/1", "/news/7?x=1", "/profile/settings;=1", "/rainbow/orange;;", "%2Fnews%2F7",
    ]

    /// The next call.
    mutating func next() -> GeneratedCall {
        while true {
            if let call = try? make() { return call }
            refusedBeforeSending += 1
        }
    }

    private mutating func make() throws -> GeneratedCall {
        let roll = Double.random(in: 0..<1, using: &rng)
        if roll < 0.72 {
            let method = rng.pick(Array(Self.contractMethods.keys).sorted())
            let arguments = rng.chance(0.2) ? wrongArguments() : arguments(for: method)
            return try call(Contract.interface, method, arguments, interfaceInHeader: !rng.chance(0.05))
        }
        if roll < 0.80 {
            // Unknown methods of the interface, close to real ones.
            let member = rng.pick(["push", "PUSH", "Pushh", "Frobnicate", "GetTree2", "Reset", "Clear", "Kill", "Exit"])
            return try call(Contract.interface, member, wrongArguments())
        }
        if roll < 0.90 {
            let interface = rng.pick(Array(standardMethodsHere.keys).sorted())
            let member = rng.pick(Array(standardMethodsHere[interface]!.keys).sorted() + ["Nope"])
            return try call(interface, member, standardArguments(interface, member))
        }
        if roll < 0.95 {
            // Unknown interfaces.
            let interface = rng.pick(
                ["org.navd.Navigator2", "org.navd", "a.b"] + (standardMethodsHere["org.freedesktop.DBus.ObjectManager"] == nil
                    ? ["org.freedesktop.DBus.ObjectManager"] : []))
            return try call(interface, rng.pick(["Push", "GetState", "GetManagedObjects"]), wrongArguments())
        }
        // Unknown objects, unknown apps and the node above the apps.
        let apps = Navigator.appsPath.rawValue
        let path = rng.pick([
            "/", "/org", "/org/navd", Navigator.objectPath.rawValue + "/child", "/org/navd/Navigator2", self.path + "/child",
            apps, apps + "/nope", apps + "/bad_", apps + "/" + String(repeating: "a", count: 65), apps + "/Demo", apps + "/_",
        ])
        let member = rng.pick(["Push", "GetState", "Introspect"])
        let interface = member == "Introspect" ? "org.freedesktop.DBus.Introspectable" : Contract.interface
        let message = try Message.navigatorCall(member, member == "Push" ? [.string("orange"), DBusValue.emptyParams] : [], interface: interface, path: path)
        // Introspecting a parent of navd's object may list it as a child node.
        return GeneratedCall(message: message, label: "object \(path)", mayAnswerSuccess: member == "Introspect", mayChangeTree: false)
    }

    private mutating func call(_ interface: String, _ member: String, _ arguments: [DBusValue], interfaceInHeader: Bool = true) throws -> GeneratedCall {
        let message = try Message.navigatorCall(member, arguments, interface: interfaceInHeader ? interface : nil, path: path)
        let expected = interface == Contract.interface ? Self.contractMethods[member] : standardMethodsHere[interface]?[member]
        let rightSignature = expected.map { $0 == message.signature } ?? false
        return GeneratedCall(
            message: message, label: (interfaceInHeader ? interface : "?") + "." + member,
            mayAnswerSuccess: rightSignature,
            mayChangeTree: interface == Contract.interface && Self.mutatingMethods.contains(member))
    }

    /// 0–4 values of random types: almost always the wrong signature.
    private mutating func wrongArguments() -> [DBusValue] {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in RandomValues.any(depth: 4, using: &rng) }
    }

    /// Arguments with the method's own signature, holding random and boundary values.
    private mutating func arguments(for method: String) -> [DBusValue] {
        switch method {
        case "Push", "Replace": return [.string(route()), params()]
        case "Present": return [.string(route()), params(), .string(style())]
        case "PopTo": return [.string(popTarget())]
        case "SelectTab": return [.string(tab())]
        case "Open": return [.string(link())]
        case "SetStack": return [screens()]
        case "Apply": return [Contract.ops(applyOps()), .uint64(expectedRevision())]
        case "History": return [.uint32(rng.pick([0, 1, 16, 1000, 1001, UInt32.max]))]
        case "Send": return [.string(source()), .string(event()), eventParams(), .uint64(expectedRevision())]
        case "Start": return [.string(flow()), rng.chance(0.7) ? DBusValue.emptyParams : params()]
        case "Finish": return [.string(output()), rng.chance(0.7) ? DBusValue.emptyParams : params()]
        case "SetFacts": return [facts()]
        case "GetEvents": return [.string(source())]
        case "Resolve":
            let kind = rng.pick(["event", "event", "link", "", "Event", "links"])
            return [.string(kind), .string(kind == "link" ? link() : event()), eventParams()]
        default: return []
        }
    }

    private mutating func standardArguments(_ interface: String, _ member: String) -> [DBusValue] {
        if rng.chance(0.2) { return wrongArguments() }
        let interfaceName = rng.pick([Contract.interface, "org.navd.Navigator2", "", "org.freedesktop.DBus.Peer"])
        let property = rng.pick(["Revision", "Depth", "Top", "TopId", "Tabs", "States", "Version", "Facts", "Nope", "", "revision"])
        switch member {
        case "Get": return [.string(interfaceName), .string(property)]
        case "GetAll": return [.string(interfaceName)]
        case "Set": return [.string(interfaceName), .string(property), .variant(RandomValues.any(depth: 2, using: &rng))]
        default: return []
        }
    }

    private mutating func route() -> String {
        rng.chance(0.45) ? rng.pick(Self.routes) : RandomValues.string(using: &rng)
    }

    private mutating func style() -> String {
        rng.chance(0.6) ? rng.pick(["sheet", "cover"]) : rng.pick(["", "push", "root", "Sheet", "popup", String(repeating: "s", count: 4097)])
    }

    private mutating func tab() -> String {
        rng.chance(0.5) ? rng.pick(["rainbow", "news", "profile"]) : RandomValues.string(using: &rng)
    }

    private mutating func link() -> String {
        rng.chance(0.6) ? rng.pick(Self.links) : RandomValues.string(using: &rng)
    }

    private mutating func event() -> String {
        rng.chance(0.7) ? rng.pick(Self.events) : RandomValues.string(using: &rng)
    }

    /// A screen to send from: the top (""), an id seen lately (on the path or popped), or anything.
    private mutating func source() -> String {
        if rng.chance(0.5) { return "" }
        if !knownIds.isEmpty, rng.chance(0.6) { return rng.pick(knownIds) }
        return rng.pick(["#1", "#99999", "#", "red", String(repeating: "#", count: 4097)] + [RandomValues.string(using: &rng)])
    }

    private mutating func flow() -> String {
        rng.chance(0.6) ? rng.pick(["auth", "Auth", "", "login"]) : RandomValues.string(using: &rng)
    }

    private mutating func output() -> String {
        rng.chance(0.7) ? rng.pick(["signed-in", "cancelled", "", "done", "signed_in"]) : RandomValues.string(using: &rng)
    }

    /// An event's params: mostly the `message` call-error reads, else anything params() makes.
    private mutating func eventParams() -> DBusValue {
        if rng.chance(0.5) { return DBusValue.emptyParams }
        if rng.chance(0.5) { return DBusValue.vardict([("message", rng.chance(0.7) ? .string(RandomValues.string(using: &rng)) : RandomValues.any(depth: 2, using: &rng))]) }
        return params()
    }

    /// SetFacts' `a{sv}`: the declared fact with the right or a wrong type, unknown facts, none.
    mutating func facts() -> DBusValue {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0, 1, 2: return DBusValue.vardict([("signed-in", .boolean(rng.chance(0.5)))])
        case 3: return DBusValue.emptyParams
        case 4: return DBusValue.vardict([("signed-in", rng.chance(0.5) ? .string("true") : RandomValues.any(depth: 3, using: &rng))])
        case 5: return DBusValue.vardict([("signed-in", .boolean(true)), (RandomValues.string(using: &rng), .boolean(true))])
        case 6: return DBusValue.vardict([("signed-in", .variant(.boolean(false)))])
        default: return params()
        }
    }

    private mutating func popTarget() -> String {
        if !knownIds.isEmpty, rng.chance(0.3) { return rng.pick(knownIds) }
        return route()
    }

    private mutating func expectedRevision() -> UInt64 {
        rng.pick([0, knownRevision, knownRevision &- 1, knownRevision + 1, UInt64.max, UInt64(Int64.max) + 1, 1])
    }

    /// `a{sv}` params: right, wrong, nested too deep, or near and over the 64 KiB limit.
    mutating func params() -> DBusValue {
        switch Int.random(in: 0..<40, using: &rng) {
        case 0..<8: return DBusValue.emptyParams
        case 8..<11: return DBusValue.vardict([("id", RandomValues.integer(using: &rng))])
        case 11, 12: return DBusValue.vardict([("id", .string("7"))])
        case 13, 14: return DBusValue.vardict([("id", .variant(.int64(7)))])
        case 15..<18: return DBusValue.vardict([("id", RandomValues.nestedVariants(Int.random(in: 2...66, using: &rng)))])
        case 18..<24: return DBusValue.vardict([(RandomValues.string(using: &rng), RandomValues.any(depth: 3, using: &rng))])
        case 24, 25:
            // An array of params whose encoded size is near the 64 KiB limit, or over it.
            let total = rng.pick([60_000, 65_000, 65_400, 65_536, 66_000, 70_000, 300_000])
            let keys = rng.pick([1, 16, 64])
            return DBusValue.vardict((0..<keys).map { ("k\($0)", .string(String(repeating: "v", count: total / keys))) })
        case 26:
            // The same as one byte array (slower to build, so rarer).
            let size = rng.pick([65_000, 65_536, 70_000])
            return DBusValue.vardict([("blob", .array(element: Signature(unchecked: "y"), Array(repeating: .byte(1), count: size)))])
        case 27: return DBusValue.vardict((0..<rng.pick([100, 2_000])).map { ("k\($0)", .int64(Int64($0))) })
        case 28..<31: return DBusValue.vardict([("id", .int64(7)), ("extra", .boolean(true))])
        case 31, 32: return DBusValue.vardict([("id", .uint64(UInt64(Int64.max) + UInt64.random(in: 0...1, using: &rng)))])
        case 33..<36: return DBusValue.vardict([("id", RandomValues.nestedContainers(Int.random(in: 1...40, using: &rng), arrays: rng.chance(0.5)))])
        default: return DBusValue.vardict([(String(repeating: "k", count: rng.pick([4096, 4097])), .int64(1))])
        }
    }

    /// `a(sa{sv})` screens for SetStack: empty, a few, or past the stack limit.
    private mutating func screens() -> DBusValue {
        let count = rng.chance(0.2) ? rng.pick([127, 128, 129, 300]) : rng.pick([0, 1, 2, 3, 5])
        // Around the stack limit one light screen is repeated: building hundreds is slow.
        let values: [DBusValue] = count > 100
            ? Array(repeating: screen(light: true), count: count) : (0..<count).map { _ in screen(light: false) }
        return .array(element: WireSignature.namedDictionary, values)
    }

    /// One `(sa{sv})` screen; `light` keeps its params small.
    private mutating func screen(light: Bool) -> DBusValue {
        let route = rng.chance(0.8) ? rng.pick(Self.routes) : String(RandomValues.string(using: &rng).prefix(light ? 100 : 10_000))
        let params = light ? rng.pick([DBusValue.emptyParams, DBusValue.vardict([("id", .int64(7))])]) : params()
        return .structure([.string(route), params])
    }

    /// Apply's ops: known and unknown names, arguments present, missing or of the wrong type,
    /// and counts around the 256-op limit.
    private mutating func applyOps() -> [DBusValue] {
        // Hundreds of ops cost the client ~30 ms each to encode in a debug build: rarer.
        let count = rng.chance(0.15) ? rng.pick([256, 257, 400]) : rng.pick([0, 1, 1, 2, 3, 5])
        // Around the 256-op limit a few random ops are repeated: building hundreds is slow.
        if count > 100 {
            let few = applyOps(count: 4, light: true)
            return (0..<count).map { few[$0 % few.count] }
        }
        return applyOps(count: count, light: false)
    }

    /// `light`: short strings, small params and no screens, for ops repeated hundreds of
    /// times (400 copies of a 600 KB route would pass the bus's 32 MiB message limit, and the
    /// bus would disconnect the suite rather than answer).
    private mutating func applyOps(count: Int, light: Bool = false) -> [DBusValue] {
        func capped(_ text: String) -> String { light && text.utf8.count > 4097 ? String(repeating: "r", count: 4097) : text }
        return (0..<count).map { _ in
            let name = rng.pick(Self.opNames)
            var arguments: [(String, DBusValue)] = []
            for key in ["route", "params", "target", "style", "tab", "screens", "event", "source", "flow", "output", "facts", "bogus"]
            where rng.chance(0.4) {
                switch key {
                case "route": arguments.append((key, rng.chance(0.8) ? .string(capped(route())) : RandomValues.integer(using: &rng)))
                case "params": arguments.append((key, light || rng.chance(0.5) ? DBusValue.emptyParams : params()))
                case "target": arguments.append((key, .string(capped(rng.chance(0.5) ? link() : popTarget()))))
                case "style": arguments.append((key, .string(capped(style()))))
                case "tab": arguments.append((key, rng.chance(0.8) ? .string(capped(tab())) : .int32(1)))
                case "screens":
                    // Few screens inside an op (SetStack itself covers the stack limit).
                    let few = (0..<Int.random(in: 0...3, using: &rng)).map { _ in screen(light: rng.chance(0.7)) }
                    arguments.append((key, light ? .string("x") : .array(element: WireSignature.namedDictionary, few)))
                case "event": arguments.append((key, rng.chance(0.8) ? .string(capped(event())) : .int32(1)))
                case "source": arguments.append((key, .string(capped(source()))))
                case "flow": arguments.append((key, .string(capped(flow()))))
                case "output": arguments.append((key, .string(capped(output()))))
                case "facts": arguments.append((key, light || rng.chance(0.2) ? .boolean(true) : facts()))
                default: arguments.append((key, light ? .string("bogus") : RandomValues.any(depth: 2, using: &rng)))
                }
            }
            return Contract.op(name, arguments)
        }
    }
}
