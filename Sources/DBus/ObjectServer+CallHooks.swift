/// What the owner of an exported object may add to its dispatch: a check that may refuse a call,
/// and the properties a caller may see of it through the ObjectManager (docs/multi-user.md).
public struct ObjectHooks {
    /// Runs for every call to the object on a method that exists (exported interfaces and the
    /// standard ones), after the object, interface and method are found and before the arguments
    /// are checked, so a refusal comes after `UnknownObject`/`UnknownInterface`/`UnknownMethod`
    /// and before `InvalidArgs`. Arguments: the call, its interface, its method. Returns the
    /// error to answer, or nil to go on.
    public var check: (Message, String, String) -> DBusError?
    /// The property names a caller may see of the object in `GetManagedObjects` (the call given)
    /// and in `InterfacesAdded` (nil: a broadcast); nil lets every property through.
    public var visibleProperties: (Message?) -> Set<String>?

    /// Hooks with the given check and filter.
    public init(
        check: @escaping (Message, String, String) -> DBusError?,
        visibleProperties: @escaping (Message?) -> Set<String>? = { _ in nil }
    ) {
        self.check = check
        self.visibleProperties = visibleProperties
    }
}

extension ObjectServer {
    /// Sets (or with nil removes) the hooks of the object at `path`; they stay when interfaces are
    /// exported there again, and go with `unexport`.
    public func setHooks(_ path: ObjectPath, _ hooks: ObjectHooks?) {
        self.hooks[path] = hooks
    }

    /// The hooks' refusal of `message` to `member` of `interface` at `path`, if any.
    func refusal(_ message: Message, at path: ObjectPath, interface: String, member: String) -> DBusError? {
        hooks[path]?.check(message, interface, member)
    }

    /// Whether `property` of the object at `path` is shown to `caller` (nil: a broadcast).
    func shows(_ property: String, at path: ObjectPath, to caller: Message?) -> Bool {
        guard let visible = hooks[path]?.visibleProperties(caller) else { return true }
        return visible.contains(property)
    }
}
