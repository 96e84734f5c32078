import ArgumentParser
import ClientCommandLine
import Foundation
import Testing
@testable import NavctlCommandLine

/// navctl's command line is described once per command: ArgumentParser's configuration and, next to it,
/// the fast path's `form`. These tests fail when the two disagree: a subcommand the table does not know,
/// a form whose words or flags are not the command's, a global option the fast path spells differently,
/// or a line the fast path reads as something ArgumentParser does not.
/// Three minutes: the generated comparison takes about 30 s in a debug build and more under ThreadSanitizer.
@Suite("navctl has one grammar", .timeLimit(.minutes(3)))
struct NavctlGrammarTests {
    /// ArgumentParser's description of the subcommand `name` (`--experimental-dump-help`), as JSON.
    func dump(_ name: String) throws -> [String: Any] {
        var message = ""
        do {
            _ = try Navctl.parseAsRoot([name, "--experimental-dump-help"])
        } catch {
            message = Navctl.fullMessage(for: error)
        }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
        var command = try #require(root["command"] as? [String: Any])
        if (command["commandName"] as? String) != name {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            command = try #require(subcommands.first { ($0["commandName"] as? String) == name }, "\(name)")
        }
        return command
    }

    /// The arguments of a dumped command: kind, spellings (`--long`, `-s`), optional, repeating.
    func arguments(_ command: [String: Any]) -> [(kind: String, names: Set<String>, optional: Bool, repeating: Bool)] {
        (command["arguments"] as? [[String: Any]] ?? []).map { argument in
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return (name["kind"] as? String) == "short" ? "-" + text : "--" + text
            }
            return (argument["kind"] as? String ?? "", Set(names), argument["isOptional"] as? Bool ?? false,
                    argument["isRepeating"] as? Bool ?? false)
        }
    }

    @Test("every subcommand is in the command table, under the name its configuration gives")
    func everySubcommandIsInTheTable() {
        let parserNames = Navctl.configuration.subcommands.map { $0._commandName }
        let tableNames = Navctl.commands.map { $0.form.name }
        #expect(parserNames == tableNames)
        #expect(Navctl.subcommandNames == Set(tableNames + ["help"]))
        for command in Navctl.commands {
            #expect(command.configuration.commandName == command.form.name, "\(command)")
        }
    }

    @Test("each form's positional words and flags are the command's, and the global options are spelled alike")
    func formsMatchTheParser() throws {
        let globalNames = GlobalOptions.flagNames.union(GlobalOptions.valueOptionNames)
        for command in Navctl.commands {
            let form = command.form
            let declared = arguments(try dump(form.name))
            let named = declared.filter { $0.kind != "positional" && !$0.names.contains("--help") }
            let allNames = named.reduce(into: Set<String>()) { $0.formUnion($1.names) }
            #expect(allNames.isSuperset(of: globalNames), "\(form.name): \(allNames)")
            let valueNames = named.filter { $0.kind == "option" }.reduce(into: Set<String>()) { $0.formUnion($1.names) }
            guard let words = form.words else { continue }
            #expect(allNames == globalNames.union(form.flags).union(form.options),
                    "\(form.name): the fast path reads other flags or options")
            #expect(valueNames == GlobalOptions.valueOptionNames.union(form.options), "\(form.name)")
            let positionals = declared.filter { $0.kind == "positional" }.map { ($0.optional, $0.repeating) }
            switch words {
            case .none: #expect(positionals.isEmpty, "\(form.name)")
            case .one: #expect(positionals.count == 1 && positionals[0] == (false, false), "\(form.name)")
            case .routeAndAssignments:
                #expect(positionals.count == 2 && positionals[0] == (false, false) && positionals[1].1, "\(form.name)")
            }
        }
    }

    /// Lines built from every command's name with words and flags in and out of its form.
    static var lines: [[String]] {
        let wordSets: [[String]] = [[], ["red"], ["red", "blue"], ["red", "id=4"], ["red", "id=4", "x=y"],
                                    ["red", "=4"], ["red", "novalue"]]
        let flagSets: [[String]] = [[], ["--sheet"], ["--cover"], ["--sheet", "--cover"], ["--all"], ["--json"],
                                    ["-q", "--quiet"], ["--timeout", "5"], ["--timeout=0"], ["--system"],
                                    ["--address", "unix:path=/x", "--system"], ["--address="], ["--frobnicate"],
                                    ["--source", "#4"], ["--source=#4"], ["--source="], ["--expect", "3"],
                                    ["--expect=x"], ["--source", "a", "--source", "b"], ["--source", "a", "--expect", "2"],
                                    ["--source"], ["--names"], ["--app", "shop"], ["--app=shop"], ["--app", "no-pe"],
                                    ["--app="], ["--app", "shop", "--app", "blog"]]
        var lines: [[String]] = []
        for name in Navctl.commands.map({ $0.form.name }) + ["help", "nosuch"] {
            for words in wordSets {
                for flags in flagSets {
                    lines.append([name] + words + flags)
                    lines.append(flags + [name] + words)
                }
            }
        }
        return lines
    }

    @Test("a line the fast path reads, ArgumentParser reads as the same command")
    func fastPathAgreesWithParser() throws {
        var taken = 0
        for line in Self.lines {
            guard let fast = fastParse(line) else { continue }
            taken += 1
            let parsed = try #require(
                try? Navctl.parseAsRoot(reorderGlobalOptions(line, subcommands: Navctl.subcommandNames)),
                "the fast path took \(line), ArgumentParser refuses it")
            #expect(String(reflecting: fast) == String(reflecting: parsed), "\(line)")
        }
        #expect(taken > 100, "the fast path takes the plain lines")
        #expect(fastParse(["push", "orange"]) is Push)
        // The comparison sees the values read: a different route or flag reads differently.
        let orange = try #require(fastParse(["push", "orange"]))
        #expect(String(reflecting: orange) != String(reflecting: try #require(fastParse(["push", "red"]))))
        #expect(String(reflecting: orange) != String(reflecting: try #require(fastParse(["push", "orange", "--json"]))))
        #expect(fastParse(["--sheet", "present", "modal"]) == nil, "a command's flag before its name is not its")
        #expect(fastParse(["send", "next", "--source", "#4", "--expect", "7"]) is Send)
        #expect(fastParse(["--source", "#4", "send", "next"]) == nil, "a command's option before its name is not its")
        #expect(fastParse(["send", "next", "--expect", "soon"]) == nil, "a value the option cannot take")
    }
}

/// `navctl history` printed a time before the epoch with a negative millisecond count, and trapped building
/// its zero padding with a negative repeat count.
@Suite("navctl history prints times before the epoch", .serialized, .timeLimit(.minutes(1)))
struct NavctlHistoryNegativeTimeTests {
    @Test("negative times count back from the epoch; extreme ones do not trap")
    func negativeTime() {
        setenv("TZ", "UTC", 1)
        tzset()
        #expect(localTime(-1_500_000) == "1969-12-31 23:59:58.500")
        #expect(localTime(-1) == "1969-12-31 23:59:59.999")
        #expect(localTime(1_000) == "1970-01-01 00:00:00.001")
        #expect(!localTime(.min).isEmpty)
        #expect(!localTime(.max).isEmpty)
    }
}
