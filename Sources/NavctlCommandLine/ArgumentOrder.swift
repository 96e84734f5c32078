/// Moves the global flags written before the subcommand's name to just after it,
/// so `navctl --json state` parses like `navctl state --json`.
///
/// Only flags in front of a known subcommand move; everything else is left for the parser to judge.
func reorderGlobalOptions(_ arguments: [String], subcommands: Set<String>) -> [String] {
    var globals: [String] = []
    var index = 0
    while index < arguments.count {
        let word = arguments[index]
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        if GlobalOptions.flagNames.contains(word) {
            globals.append(word)
            index += 1
        } else if GlobalOptions.valueOptionNames.contains(name) {
            globals.append(word)
            if !word.contains("="), index + 1 < arguments.count {
                globals.append(arguments[index + 1])
                index += 1
            }
            index += 1
        } else {
            break
        }
    }
    guard !globals.isEmpty, index < arguments.count, subcommands.contains(arguments[index]) else { return arguments }
    return [arguments[index]] + globals + arguments[(index + 1)...]
}
