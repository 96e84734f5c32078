import DBus
import Navigation

extension OperationDeclaration.Kind {
    /// The D-Bus signature of a value of this kind, inside the op's `a{sv}`: `s`, `a{sv}` or `a(sa{sv})`.
    public var signature: Signature {
        switch self {
        case .string: Signature(unchecked: "s")
        case .params: WireSignature.params
        case .screens: WireSignature.screens
        case .revision: Signature(unchecked: "t")
        }
    }
}
