/// One named argument of a method or signal.
public struct ArgumentDeclaration: Hashable, Sendable {
    /// The argument's name, shown in introspection.
    public var name: String
    /// Its single complete type.
    public var signature: Signature

    /// An argument `name` of type `signature` (checked when the interface is exported).
    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = Signature(unchecked: signature)
    }
}

/// A method: its name, arguments in and out, and what introspection says about it.
public struct MethodDeclaration: Hashable, Sendable {
    /// The member name, such as `Push`.
    public var name: String
    /// The arguments the caller sends.
    public var inArguments: [ArgumentDeclaration]
    /// The values the reply carries.
    public var outArguments: [ArgumentDeclaration]
    /// Written into the introspection XML as a comment.
    public var documentation: String?
    /// Introspection annotations, such as `org.freedesktop.DBus.Method.NoReply`.
    public var annotations: [String: String]

    /// A method declaration.
    public init(
        _ name: String, in inArguments: [ArgumentDeclaration] = [], out outArguments: [ArgumentDeclaration] = [],
        documentation: String? = nil, annotations: [String: String] = [:]
    ) {
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.documentation = documentation
        self.annotations = annotations
    }

    /// The signature a call must have.
    public var inSignature: Signature { Signature(unchecked: inArguments.map(\.signature.rawValue).joined()) }
    /// The signature of the reply.
    public var outSignature: Signature { Signature(unchecked: outArguments.map(\.signature.rawValue).joined()) }
}

/// A signal: its name and arguments.
public struct SignalDeclaration: Hashable, Sendable {
    /// The member name, such as `StackChanged`.
    public var name: String
    /// The values the signal carries.
    public var arguments: [ArgumentDeclaration]
    /// Written into the introspection XML as a comment.
    public var documentation: String?

    /// A signal declaration.
    public init(_ name: String, _ arguments: [ArgumentDeclaration] = [], documentation: String? = nil) {
        self.name = name
        self.arguments = arguments
        self.documentation = documentation
    }

    /// The signature the signal's body has.
    public var signature: Signature { Signature(unchecked: arguments.map(\.signature.rawValue).joined()) }
}

/// A property: its name, type and whether it can be set.
public struct PropertyDeclaration: Hashable, Sendable {
    /// Read-only or read-write.
    public enum Access: Hashable, Sendable {
        /// `Get` only; `Set` answers `PropertyReadOnly`.
        case read
        /// `Get` and `Set`.
        case readWrite
    }

    /// The property name, such as `Revision`.
    public var name: String
    /// Its single complete type.
    public var signature: Signature
    /// Whether it can be set.
    public var access: Access
    /// Whether `PropertiesChanged` announces its changes; false adds the
    /// `org.freedesktop.DBus.Property.EmitsChangedSignal` annotation with value `false`.
    public var emitsChangedSignal: Bool
    /// Written into the introspection XML as a comment.
    public var documentation: String?

    /// A property declaration.
    public init(
        _ name: String, _ signature: String, access: Access = .read, emitsChangedSignal: Bool = true,
        documentation: String? = nil
    ) {
        self.name = name
        self.signature = Signature(unchecked: signature)
        self.access = access
        self.emitsChangedSignal = emitsChangedSignal
        self.documentation = documentation
    }
}

/// A whole interface, declared once: dispatch, signature checks, introspection and
/// properties are all derived from it.
public struct InterfaceDeclaration: Hashable, Sendable {
    /// The interface name, such as `org.example.Service1`.
    public var name: String
    /// Its methods, in introspection order.
    public var methods: [MethodDeclaration]
    /// Its signals, in introspection order.
    public var signals: [SignalDeclaration]
    /// Its properties, in introspection order.
    public var properties: [PropertyDeclaration]
    /// Written into the introspection XML as a comment.
    public var documentation: String?

    /// An interface declaration.
    public init(
        name: String, methods: [MethodDeclaration] = [], signals: [SignalDeclaration] = [],
        properties: [PropertyDeclaration] = [], documentation: String? = nil
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
        self.documentation = documentation
    }

    /// The method called `name`, if declared.
    public func method(named name: String) -> MethodDeclaration? { methods.first { $0.name == name } }
    /// The signal called `name`, if declared.
    public func signal(named name: String) -> SignalDeclaration? { signals.first { $0.name == name } }
    /// The property called `name`, if declared.
    public func property(named name: String) -> PropertyDeclaration? { properties.first { $0.name == name } }

    /// Throws `InvalidArgs` naming the first invalid name or signature in the declaration.
    public func validate() throws(DBusError) {
        try Validate.interface(name)
        for method in methods {
            try Validate.member(method.name)
            for argument in method.inArguments + method.outArguments {
                try Validate.singleSignature(argument.signature.rawValue)
            }
            try Validate.signature(method.inSignature.rawValue)
            try Validate.signature(method.outSignature.rawValue)
        }
        for signal in signals {
            try Validate.member(signal.name)
            for argument in signal.arguments { try Validate.singleSignature(argument.signature.rawValue) }
            try Validate.signature(signal.signature.rawValue)
        }
        for property in properties {
            try Validate.member(property.name)
            try Validate.singleSignature(property.signature.rawValue)
        }
    }
}
