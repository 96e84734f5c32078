import DBus
import Navigation

// A method's arguments as one typed value: its fields, each named once with the type it travels as, give the
// declaration introspection shows, the decoding the daemon (and the D-Bus call fuzz target) reads a call with, and
// the encoding the clients send (`NavigatorCall`, in NavigatorMethod.swift, declares the values).

/// A Swift value one argument travels as: its D-Bus signature, how it is written, and how it is read.
public protocol WireArgument: Sendable {
    /// The argument's single complete type, such as `s` or `a{sv}`.
    static var argumentSignature: Signature { get }
    /// The value as sent.
    var argumentValue: DBusValue { get }
    /// Reads the argument `name`; throws `InvalidArgs` naming it and what came when the value is of another shape.
    init(argument value: DBusValue, named name: String) throws(DBusError)
}

extension String: WireArgument {
    /// `s`.
    public static var argumentSignature: Signature { Signature(unchecked: "s") }
    /// The string.
    public var argumentValue: DBusValue { .string(self) }
    /// The `s` argument `name`.
    public init(argument value: DBusValue, named name: String) throws(DBusError) { self = try value.requiredString(name) }
}

extension UInt64: WireArgument {
    /// `t`.
    public static var argumentSignature: Signature { Signature(unchecked: "t") }
    /// The number.
    public var argumentValue: DBusValue { .uint64(self) }
    /// The `t` argument `name`.
    public init(argument value: DBusValue, named name: String) throws(DBusError) { self = try value.requiredUInt64(name) }
}

extension UInt32: WireArgument {
    /// `u`.
    public static var argumentSignature: Signature { Signature(unchecked: "u") }
    /// The number.
    public var argumentValue: DBusValue { .uint32(self) }
    /// The `u` argument `name`.
    public init(argument value: DBusValue, named name: String) throws(DBusError) { self = try value.requiredUInt32(name) }
}

extension Bool: WireArgument {
    /// `b`.
    public static var argumentSignature: Signature { Signature(unchecked: "b") }
    /// The boolean.
    public var argumentValue: DBusValue { .boolean(self) }
    /// The `b` argument `name`.
    public init(argument value: DBusValue, named name: String) throws(DBusError) { self = try value.requiredBool(name) }
}

/// How an argument of a container type is read into what the model takes (`InputParams`, `ScreenRequest`s,
/// `RawOperation`s): the reading of a `Carried` argument.
public protocol ArgumentReading {
    /// What the model takes.
    associatedtype Reading: Sendable
    /// The argument's signature.
    static var signature: Signature { get }
    /// Reads it; throws `InvalidArgs` naming the first part of another shape.
    static func read(_ value: DBusValue) throws(DBusError) -> Reading
}

/// An argument kept as it travels, with the model's reading of it: what came is what is sent again, so a value
/// a client made from its own types (`Params`, `ScreenSpec`, `BatchOperation`) goes out exactly as it made it.
public struct Carried<Kind: ArgumentReading>: WireArgument, Hashable {
    /// The value as it travels.
    public let argumentValue: DBusValue
    /// The model's reading of it.
    public let reading: Kind.Reading

    /// `Kind`'s signature.
    public static var argumentSignature: Signature { Kind.signature }

    /// Reads the argument (its name is not needed: each kind's refusals name what it is).
    public init(argument value: DBusValue, named name: String) throws(DBusError) {
        reading = try Kind.read(value)
        argumentValue = value
    }

    /// A value made by a typed client, of `Kind`'s shape by construction.
    public init(made value: DBusValue) {
        do { try self.init(argument: value, named: "") } catch { preconditionFailure("a made argument is malformed: \(error.message)") }
    }

    /// Equal when they travel the same.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.argumentValue == rhs.argumentValue }
    /// Hashes what travels.
    public func hash(into hasher: inout Hasher) { hasher.combine(argumentValue) }
}

/// Params `a{sv}` read as the model takes them.
public enum ParamsReading: ArgumentReading {
    /// `a{sv}`.
    public static var signature: Signature { WireSignature.params }
    /// `InputValue.params(dbusValue:)`.
    public static func read(_ value: DBusValue) throws(DBusError) -> InputParams { try InputValue.params(dbusValue: value) }
}

/// SetStack's screens `a(sa{sv})`.
public enum ScreensReading: ArgumentReading {
    /// `a(sa{sv})`.
    public static var signature: Signature { WireSignature.screens }
    /// `ScreenRequest.screens(dbusValue:)`.
    public static func read(_ value: DBusValue) throws(DBusError) -> [ScreenRequest] { try ScreenRequest.screens(dbusValue: value) }
}

/// Apply's ops `a(sa{sv})`, each its name and dict (parsed into operations by the model).
public enum OperationsReading: ArgumentReading {
    /// `a(sa{sv})`.
    public static var signature: Signature { WireSignature.operations }
    /// `RawOperation.operations(dbusValue:)`.
    public static func read(_ value: DBusValue) throws(DBusError) -> [RawOperation] { try RawOperation.operations(dbusValue: value) }
}

/// A params argument `a{sv}`.
public typealias CallParams = Carried<ParamsReading>
/// A screens argument `a(sa{sv})`.
public typealias CallScreens = Carried<ScreensReading>
/// An ops argument `a(sa{sv})`.
public typealias CallOperations = Carried<OperationsReading>

/// A method's arguments as one value: `coding` is its one declaration (each field's name, with the type it
/// travels as), from which its introspection, its decoding and its encoding derive.
public protocol MethodArguments: Sendable, Hashable {
    /// The fields in the call's order.
    static var coding: ArgumentCoding<Self> { get }
}

extension MethodArguments {
    /// The arguments as introspection declares them.
    public static var declarations: [ArgumentDeclaration] { coding.declarations }

    /// Reads a call's values; throws `InvalidArgs` naming the first that does not fit.
    public init(values: [DBusValue]) throws(DBusError) { self = try Self.coding.decode(values) }

    /// The values to send, in the call's order.
    public var values: [DBusValue] { Self.coding.encode(self) }
}

/// The declaration of a method's arguments value: made from its initializer and, in the call's order, each
/// field's name and key path. A field's type says its signature; a field left out, or of another type than the
/// initializer takes, does not compile.
public struct ArgumentCoding<Value>: Sendable {
    /// Each argument's name and signature.
    public let declarations: [ArgumentDeclaration]
    /// Reads a call's values.
    let decode: @Sendable ([DBusValue]) throws(DBusError) -> Value
    /// The values to send.
    let encode: @Sendable (Value) -> [DBusValue]

    /// The coding of a value made by `make` from the fields `field`, each `(name, key path)`.
    public init<each Field: WireArgument>(
        _ make: @escaping @Sendable (repeat each Field) -> Value,
        _ field: repeat (String, any KeyPath<Value, each Field> & Sendable)
    ) {
        var declarations: [ArgumentDeclaration] = []
        for (name, type) in repeat ((each field).0, (each Field).self) {
            declarations.append(ArgumentDeclaration(name, type.argumentSignature.rawValue))
        }
        let names = declarations.map(\.name)
        self.declarations = declarations
        decode = { values throws(DBusError) in
            guard values.count == names.count else {
                throw .invalidArgs("expected \(names.count) arguments (\(names.joined(separator: ", "))), got \(values.count)")
            }
            var index = 0
            func next<F: WireArgument>(_: F.Type) throws(DBusError) -> F {
                defer { index += 1 }
                return try F(argument: values[index], named: names[index])
            }
            return make(repeat try next((each Field).self))
        }
        let paths = (repeat (each field).1)
        encode = { value in
            var values: [DBusValue] = []
            for path in repeat each paths { values.append(value[keyPath: path].argumentValue) }
            return values
        }
    }
}

/// The arguments of a method that takes none.
public struct NoArguments: MethodArguments {
    /// No arguments.
    public init() {}
    /// No fields.
    public static let coding = ArgumentCoding(Self.init)
}
