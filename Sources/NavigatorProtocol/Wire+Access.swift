import DBus
import Navigation

extension Navigator {
    /// Property `Access` (`a{sas}`): the keys of `access`, each list as written; `{}` for nil.
    public static func accessValue(_ access: Access?) -> DBusValue {
        .dictionary(
            key: .string, value: Signature(unchecked: "as"),
            (access?.written ?? []).map { DBusDictEntry(key: .string($0.key), value: .stringArray($0.entries)) })
    }

    /// The lists a property `Access` value holds, in its order; nil when the value has another shape.
    public static func accessLists(_ value: DBusValue) -> [(key: String, entries: [String])]? {
        guard case .dictionary(_, _, let pairs) = value else { return nil }
        var lists: [(key: String, entries: [String])] = []
        for pair in pairs {
            guard let key = pair.key.stringValue, case .array(_, let items) = pair.value else { return nil }
            lists.append((key, items.compactMap(\.stringValue)))
        }
        return lists
    }
}
