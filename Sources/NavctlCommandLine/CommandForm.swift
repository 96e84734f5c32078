import ArgumentParser

/// A navctl subcommand: its ArgumentParser configuration, and next to it the fast path's reading of its plain form.
///
/// `Navctl.commands` lists every subcommand once; ArgumentParser's subcommands, the fast path's table and the
/// names `reorderGlobalOptions` knows all come from that list, and each configuration's `commandName` is
/// its form's `name`.
protocol NavctlCommand: ParsableCommand {
    /// How the fast path reads the command (or that it leaves it to ArgumentParser).
    static var form: CommandForm { get }
    /// The line `navctl help` shows for it.
    static var abstract: String { get }
    /// What `navctl help COMMAND` adds below the abstract; none by default.
    static var discussion: String { get }
    /// The global options, set by the fast path after `form.build`.
    var options: GlobalOptions { get set }
}

extension NavctlCommand {
    static var discussion: String { "" }

    /// What ArgumentParser reads: the form's name, the abstract and the discussion.
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: form.name, abstract: abstract, discussion: discussion)
    }
}

/// The plain form of one subcommand as the fast path reads it: the name, the positional words, the command's
/// own value-less flags and options with values, and how to build the command from them.
struct CommandForm: Sendable {
    /// The positional words a plain form takes after the name.
    enum Words: Sendable {
        /// None.
        case none
        /// Exactly one.
        case one
        /// A route, then zero or more `key=value` words.
        case routeAndAssignments

        /// Whether `words` have this shape.
        func accepts(_ words: [String]) -> Bool {
            switch self {
            case .none: return words.isEmpty
            case .one: return words.count == 1
            case .routeAndAssignments:
                return !words.isEmpty && words.dropFirst().allSatisfy { $0.contains("=") && !$0.hasPrefix("=") }
            }
        }
    }

    /// The subcommand's name (its configuration's `commandName`).
    let name: String
    /// The positional words of the plain form; nil when the fast path leaves the command to ArgumentParser.
    let words: Words?
    /// The command's own flags the plain form may carry (long names, no value). Arrays, not sets, on the
    /// fast path: each generic type instantiated at start-up costs a scan of the binary's conformances.
    let flags: [String]
    /// The command's own options that take a value (long names), each given at most once, as `--name VALUE`
    /// or `--name=VALUE`.
    let options: [String]
    /// The command from its words (of shape `words`), the flags given (a subset of `flags`) and the options
    /// given with their values (names from `options`, in the order given); nil when the combination is not a
    /// plain form (such as a value the option cannot take). The global options are set afterwards.
    let build: @Sendable (_ words: [String], _ flags: [String], _ options: [(name: String, value: String)])
        -> (any NavctlCommand)?
}

extension CommandForm {
    /// A command the fast path reads, without options of its own.
    init(_ name: String, words: Words, flags: [String] = [],
         build: @escaping @Sendable (_ words: [String], _ flags: [String]) -> (any NavctlCommand)?)
    {
        self.init(name, words: words, flags: flags, options: []) { words, flags, _ in build(words, flags) }
    }

    /// A command the fast path reads, with options that take a value.
    init(_ name: String, words: Words, flags: [String] = [], options: [String],
         build: @escaping @Sendable (_ words: [String], _ flags: [String], _ options: [(name: String, value: String)])
            -> (any NavctlCommand)?)
    {
        self.init(name: name, words: words, flags: flags, options: options, build: build)
    }

    /// A command the fast path leaves to ArgumentParser.
    static func parserOnly(_ name: String) -> CommandForm {
        CommandForm(name: name, words: nil, flags: [], options: [], build: { _, _, _ in nil })
    }
}
