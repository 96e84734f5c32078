/// A failure of a fixture (a bus, a process, a file it needed), with its reason.
public struct HarnessError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
