import DBus
import Navigation

extension EventParamsInfo: WireStruct {
    /// An event with the params its handler reads `(ssa{ss})`; GetEventParams answers a list `a(ssa{ss})`.
    public static let wire = WireShape(WireSignature.eventWithParams, list: WireSignature.eventsWithParams, named: "events", item: "event")

    /// The event `(ssa{ss})`: (event, scope, params), params mapping each name to its type in reading order.
    public var dbusValue: DBusValue {
        let pairs = params.order.compactMap { name in params.types[name].map { (name, $0.rawValue) } }
        return .structure([.string(event), .string(scope), .stringDictionary(pairs)])
    }

    /// Reads an event `(ssa{ss})`; throws `InvalidArgs` naming what does not fit, such as an unknown type.
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 3,
              case .string(let event) = fields[0], case .string(let scope) = fields[1], let pairs = fields[2].stringPairs
        else { throw malformed("an event with params \(WireSignature.eventWithParams)", dbusValue) }
        var declaration = ParamDeclaration(order: [])
        for (name, typeName) in pairs {
            guard let type = ParamType(rawValue: typeName) else {
                throw .invalidArgs("event '\(event)': param '\(name)' has type '\(typeName)', not string, int, double or bool")
            }
            declaration.types[name] = type
            declaration.order.append(name)
            declaration.required.insert(name)
        }
        self.init(event: event, scope: scope, params: declaration)
    }
}
