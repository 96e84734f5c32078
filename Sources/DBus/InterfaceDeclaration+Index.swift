/// An interface declaration's members by name, with each method's and signal's signature
/// joined once, so that dispatch and signal building need no linear scan and no string
/// building per call. Built when an interface is exported (its declaration validated).
struct DeclarationIndex {
    /// A method with its joined in- and out-signatures.
    struct Method {
        let declaration: MethodDeclaration
        let inSignature: Signature
        let outSignature: Signature
    }

    /// Methods by name (the first declaration of a name wins, as `method(named:)` does).
    let methods: [String: Method]
    /// Signal body signatures by signal name.
    let signals: [String: Signature]
    /// Properties by name.
    let properties: [String: PropertyDeclaration]

    /// The index of `declaration`.
    init(_ declaration: InterfaceDeclaration) {
        var methods: [String: Method] = [:]
        for method in declaration.methods where methods[method.name] == nil {
            methods[method.name] = Method(
                declaration: method, inSignature: method.inSignature, outSignature: method.outSignature)
        }
        var signals: [String: Signature] = [:]
        for signal in declaration.signals where signals[signal.name] == nil {
            signals[signal.name] = signal.signature
        }
        var properties: [String: PropertyDeclaration] = [:]
        for property in declaration.properties where properties[property.name] == nil {
            properties[property.name] = property
        }
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }
}

extension StandardInterfaces {
    /// The standard interfaces' indexes, by interface name.
    static let indexes: [String: DeclarationIndex] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.name, DeclarationIndex($0)) })
}
