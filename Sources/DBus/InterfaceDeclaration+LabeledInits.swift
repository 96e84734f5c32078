// Initializers with every field labelled, matching the stored properties, for code that
// prefers `MethodDeclaration(name: "Push", inArguments: …)` to the short forms.

extension ArgumentDeclaration {
    /// An argument `name` of type `signature`.
    public init(name: String, signature: Signature) {
        self.init(name, signature.rawValue)
    }
}

extension MethodDeclaration {
    /// A method declaration with labelled fields.
    public init(
        name: String, inArguments: [ArgumentDeclaration] = [], outArguments: [ArgumentDeclaration] = [],
        documentation: String? = nil, annotations: [String: String] = [:]
    ) {
        self.init(name, in: inArguments, out: outArguments, documentation: documentation, annotations: annotations)
    }
}

extension SignalDeclaration {
    /// A signal declaration with labelled fields.
    public init(name: String, arguments: [ArgumentDeclaration] = [], documentation: String? = nil) {
        self.init(name, arguments, documentation: documentation)
    }
}

extension PropertyDeclaration {
    /// A property declaration with labelled fields.
    public init(
        name: String, signature: Signature, access: Access = .read, emitsChangedSignal: Bool = true,
        documentation: String? = nil
    ) {
        self.init(
            name, signature.rawValue, access: access, emitsChangedSignal: emitsChangedSignal,
            documentation: documentation)
    }
}
