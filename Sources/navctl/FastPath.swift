#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import NavdClient

/// Reads the everyday command lines by hand, skipping ArgumentParser's reflection (about a third of
/// navctl's start-up; `navctl push` is benchmarked against `busctl call`, whole process).
///
/// Only plain forms are taken: the global flags, then one of push, replace, present, pop, pop-to, root,
/// dismiss, back, tab, open, undo, redo, state, tree, status with its positional words. Anything else
/// (help, completion, an unknown or repeated flag, a missing or extra word, a word starting with `-`,
/// a param without `=`) returns nil, and ArgumentParser reads the line and owns every message.
/// The commands built here run exactly the code ArgumentParser's would (`validate()`, then `run()`).
/// `NAVCTL_NO_FAST_PATH=1` turns it off (the tests compare both paths).
func fastParse(_ arguments: [String]) -> ParsableCommand? {
    if let off = getenv("NAVCTL_NO_FAST_PATH"), off.pointee != 0 { return nil }
    var system = false, json = false, quiet = false
    var address: String?
    var timeout: Double = 25
    var style: ModalStyle?
    var all = false
    var words: [String] = []
    var index = 0
    var seen: Set<String> = []
    while index < arguments.count {
        let word = arguments[index]
        index += 1
        guard word.hasPrefix("-") else { words.append(word); continue }
        let name = word.hasPrefix("--address=") ? "--address" : word.hasPrefix("--timeout=") ? "--timeout" : word
        guard seen.insert(name == "-q" ? "--quiet" : name).inserted else { return nil }
        func value() -> String? {
            if let equals = word.firstIndex(of: "=") { return String(word[word.index(after: equals)...]) }
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            index += 1
            return arguments[index - 1]
        }
        switch name {
        case "--system": system = true
        case "--json": json = true
        case "-q", "--quiet": quiet = true
        case "--sheet": style = .sheet
        case "--cover": style = .cover
        case "--all": all = true
        case "--address":
            guard let text = value(), !text.isEmpty else { return nil }
            address = text
        case "--timeout":
            guard let text = value(), let seconds = Double(text), seconds > 0, seconds < 2_000_000 else { return nil }
            timeout = seconds
        default:
            return nil
        }
    }
    guard !(system && address != nil), let name = words.first, !(seen.contains("--sheet") && seen.contains("--cover"))
    else { return nil }
    var options = GlobalOptions()
    options.system = system
    options.address = address
    options.timeout = timeout
    options.json = json
    options.quiet = quiet
    let rest = Array(words.dropFirst())
    let takesStyle = name == "present", takesAll = name == "dismiss"
    guard takesStyle || style == nil, takesAll || !all else { return nil }
    switch (name, rest.count) {
    case ("push", 1...), ("replace", 1...), ("present", 1...):
        let params = Array(rest.dropFirst())
        guard params.allSatisfy({ $0.contains("=") && !$0.hasPrefix("=") }) else { return nil }
        if name == "push" {
            var command = Push()
            command.options = options; command.route = rest[0]; command.params = params
            return command
        } else if name == "replace" {
            var command = Replace()
            command.options = options; command.route = rest[0]; command.params = params
            return command
        }
        guard style != nil else { return nil }
        var command = Present()
        command.options = options; command.route = rest[0]; command.params = params; command.style = style
        return command
    case ("pop-to", 1):
        var command = PopTo()
        command.options = options; command.target = rest[0]
        return command
    case ("tab", 1):
        var command = Tab()
        command.options = options; command.name = rest[0]
        return command
    case ("open", 1):
        var command = Open()
        command.options = options; command.target = rest[0]
        return command
    case ("dismiss", 0):
        var command = Dismiss()
        command.options = options; command.all = all
        return command
    case ("pop", 0): var command = Pop(); command.options = options; return command
    case ("root", 0): var command = Root(); command.options = options; return command
    case ("back", 0): var command = Back(); command.options = options; return command
    case ("undo", 0): var command = Undo(); command.options = options; return command
    case ("redo", 0): var command = Redo(); command.options = options; return command
    case ("state", 0): var command = State(); command.options = options; return command
    case ("tree", 0): var command = Tree(); command.options = options; return command
    case ("status", 0): var command = Status(); command.options = options; return command
    default: return nil
    }
}
