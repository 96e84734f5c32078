import Navigation

// The words navctl takes for an Apply op besides the contract's name: the route file's verb, then navctl's own
// longer forms. The daemon takes only the name.
extension OperationDeclaration {
    /// navctl's longer forms of some ops, past the route file's verb.
    private static let navctlLongForms: [OperationKind: [String]] = [
        .popToRoot: ["pop-to-root"], .selectTab: ["select-tab"], .setFacts: ["facts"],
    ]

    /// The other names navctl takes in a batch file, its commands' (`pop-to`, `root`, `pop-to-root`): the
    /// route file's verb when it differs from `name`, then navctl's longer forms.
    public var spellings: [String] {
        let verb = routeFileVerb.flatMap { $0 == name ? nil : [$0] } ?? []
        return verb + (Self.navctlLongForms[kind] ?? [])
    }

    /// The operation `word` names, by the contract's name or one of navctl's, in any case.
    public static func spelled(_ word: String) -> OperationDeclaration? {
        let lowered = word.lowercased()
        return all.first { $0.name == lowered || $0.spellings.contains(lowered) }
    }
}
