#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

/// Reads the everyday command lines by hand, skipping ArgumentParser's reflection (about a third of
/// navctl's start-up; `navctl push` is benchmarked against `busctl call`, whole process).
///
/// The table is the commands' own: `GlobalOptions.readings` for the global options, and the `form` of each
/// command in `Navctl.commands`. Only plain forms are taken: global options anywhere, the command's name,
/// its own flags and options after the name, and positional words of its form's shape. Anything else (help, completion,
/// an unknown or repeated flag, a missing or extra word, a word starting with `-`, a param without `=`,
/// options `validate()` refuses) returns nil, and ArgumentParser reads the line and owns every message.
/// The commands built here run exactly the code ArgumentParser's would (`validate()`, then `run()`).
/// `NAVCTL_NO_FAST_PATH=1` turns it off (the tests compare both paths).
func fastParse(_ arguments: [String]) -> (any NavctlCommand)? {
    if let off = getenv("NAVCTL_NO_FAST_PATH"), off.pointee != 0 { return nil }
    var values = GlobalOptions.Values()
    // Arrays, not sets: each generic type instantiated at start-up costs a scan of the binary's conformances.
    var globalsSeen = [Bool](repeating: false, count: GlobalOptions.readings.count)
    var flags: [String] = []
    var commandOptions: [(name: String, value: String)] = []
    var words: [String] = []
    var index = 0
    while index < arguments.count {
        let word = arguments[index]
        index += 1
        guard word.hasPrefix("-") else { words.append(word); continue }
        let equals = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
        let name = equals.map { String(word[..<$0]) } ?? word
        guard let position = GlobalOptions.readings.firstIndex(where: { $0.names.contains(name) }) else {
            // The command's own flags and options count only after its name, as ArgumentParser reads them.
            guard !words.isEmpty else { return nil }
            if let form = Navctl.form(named: words[0]), form.options.contains(name) {
                guard !commandOptions.contains(where: { $0.name == name }) else { return nil }
                if let equals {
                    // ArgumentParser calls `--name=` a missing value.
                    guard word.index(after: equals) < word.endIndex else { return nil }
                    commandOptions.append((name, String(word[word.index(after: equals)...])))
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
                    commandOptions.append((name, arguments[index]))
                    index += 1
                }
                continue
            }
            guard equals == nil, !flags.contains(word) else { return nil }
            flags.append(word)
            continue
        }
        guard !globalsSeen[position] else { return nil }
        globalsSeen[position] = true
        let reading = GlobalOptions.readings[position]
        var value = ""
        if let equals {
            guard reading.takesValue else { return nil }
            value = String(word[word.index(after: equals)...])
        } else if reading.takesValue {
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            value = arguments[index]
            index += 1
        }
        guard reading.apply(&values, value) else { return nil }
    }
    guard let name = words.first, let form = Navctl.form(named: name), let shape = form.words,
          flags.allSatisfy(form.flags.contains)
    else { return nil }
    let rest = Array(words.dropFirst())
    let options = GlobalOptions(values)
    guard shape.accepts(rest), (try? options.connection.validate()) != nil,
          var command = form.build(rest, flags, commandOptions)
    else { return nil }
    command.options = options
    return command
}
