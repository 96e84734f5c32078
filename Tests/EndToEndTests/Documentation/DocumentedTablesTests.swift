import DBus
import Foundation
import Navigation
import NavigatorProtocol
import TestFixtures
import Testing

/// The tables the documentation keeps of what the code declares — docs/dbus-api.md's methods, errors and
/// limits, navd.routes(5)'s limits, the readers docs/installing.md names — say what the code says: a
/// method, an error or a limit added, renamed or changed in the code fails here until its table follows.
@Suite("the documentation's tables against the code")
struct DocumentedTablesTests {
    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: Fixture.repository + "/" + relative, encoding: .utf8)
    }

    /// The rows of every Markdown table under the heading `heading` (up to the next heading of its
    /// level or higher), each as its cells, the header and the rule left out.
    static func rows(_ markdown: String, under heading: String) -> [[String]] {
        let level = heading.prefix(while: { $0 == "#" }).count
        var inside = false, rows: [[String]] = []
        for line in markdown.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#") {
                let lineLevel = line.prefix(while: { $0 == "#" }).count
                if line == heading { inside = true; continue }
                if inside && lineLevel <= level { break }
            }
            guard inside, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            rows.append(cells)
        }
        // Each table's header and rule: the rule is the row of dashes, the header the row before it.
        var kept: [[String]] = []
        for row in rows {
            if row.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 == "-" || $0 == ":" } }) {
                kept.removeLast()
            } else {
                kept.append(row)
            }
        }
        return kept
    }

    /// The names written in code spans in `cell`: "`Undo`, `Redo`" → ["Undo", "Redo"].
    static func codeSpans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func theErrorsTableNamesEveryErrorOfTheCodeAndNoOther() throws {
        let rows = Self.rows(try Self.read("docs/dbus-api.md"), under: "## Errors")
        let documented = rows.flatMap { Self.codeSpans($0[0]) }
        #expect(Set(documented) == Set(NavigatorErrorName.allCases.map(\.rawValue)),
                "docs/dbus-api.md's errors table against NavigatorErrorName: only in the docs \(Set(documented).subtracting(NavigatorErrorName.allCases.map(\.rawValue))), only in the code \(Set(NavigatorErrorName.allCases.map(\.rawValue)).subtracting(documented))")
        #expect(documented.count == Set(documented).count, "each error once")
    }

    /// "64 KiB" → 65536, "4096 bytes" → 4096, "128" → 128.
    static func amount(_ text: String) -> Int? {
        let words = text.split(separator: " ")
        guard let number = words.first.flatMap({ Int($0) }) else { return nil }
        return words.dropFirst().first == "KiB" ? number * 1024 : number
    }

    @Test func theLimitsTableGivesEveryLimitWithTheCodesDefault() throws {
        let rows = Self.rows(try Self.read("docs/dbus-api.md"), under: "## Limits and the order of checks")
        var documented: [String: Int] = [:]
        for row in rows {
            let key = try #require(Self.codeSpans(row[2]).first, "a limit row without its key: \(row)")
            documented[key] = Self.amount(row[1])
        }
        let defaults = Limits()
        #expect(Set(documented.keys) == Set(Limits.Key.allCases.map(\.rawValue)), "docs/dbus-api.md's limits table names every limit")
        for key in Limits.Key.allCases {
            #expect(documented[key.rawValue] == defaults[key], "docs/dbus-api.md: \(key.rawValue)'s default")
        }
    }

    @Test func navdRoutesGivesEveryLimitWithTheCodesDefaultAndMaximum() throws {
        let page = try Self.read("man/src/navd.routes.5.mdoc").split(separator: "\n").map(String.init)
        let defaults = Limits()
        for key in Limits.Key.allCases {
            let at = try #require(page.firstIndex(of: ".It Cm \(key.rawValue)"), "navd.routes(5) describes \(key.rawValue)")
            let text = page[(at + 1)...].prefix { !$0.hasPrefix(".It") && !$0.hasPrefix(".El") }.joined(separator: " ")
            #expect(text.contains("(default \(defaults[key])"), "navd.routes(5): \(key.rawValue)'s default is \(defaults[key]): \(text)")
            if key.maximum < Int(Int32.max) {
                #expect(text.contains("at most \(key.maximum)"), "navd.routes(5): \(key.rawValue)'s maximum is \(key.maximum): \(text)")
            }
        }
    }

    /// "s route, a{sv} params" → [("s", "route"), ("a{sv}", "params")]; "t" → [("t", nil)].
    static func arguments(_ text: String) -> [(signature: String, name: String?)] {
        let trimmed = text.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return [] }
        return trimmed.components(separatedBy: ", ").map { part in
            let words = part.split(separator: " ")
            return (String(words[0]), words.count > 1 ? String(words[1]) : nil)
        }
    }

    @Test func theMethodTablesGiveEveryMethodWithItsDeclaredArguments() throws {
        let markdown = try Self.read("docs/dbus-api.md")
        var documented: [String: (in: String, out: String)] = [:]
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") && line.contains(" → ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let arrow = cells[2].components(separatedBy: "→")
            guard arrow.count == 2 else { continue }
            for name in Self.codeSpans(cells[1]) where NavigatorMethod(name: name) != nil {
                #expect(documented[name] == nil, "docs/dbus-api.md describes \(name) once")
                documented[name] = (arrow[0], arrow[1])
            }
        }
        for method in NavigatorMethod.all {
            guard let row = documented[method.name] else {
                Issue.record("docs/dbus-api.md has no row for \(method.name)")
                continue
            }
            let inArguments = Self.arguments(row.in), outArguments = Self.arguments(row.out)
            let declaration = method.declaration
            #expect(inArguments.map(\.signature) == declaration.inArguments.map(\.signature.rawValue), "\(method.name)'s arguments' types")
            #expect(inArguments.map(\.name) == declaration.inArguments.map(\.name), "\(method.name)'s arguments' names")
            #expect(outArguments.map(\.signature) == declaration.outArguments.map(\.signature.rawValue), "\(method.name)'s reply's types")
            for (documentedArgument, declared) in zip(outArguments, declaration.outArguments) where documentedArgument.name != nil {
                #expect(documentedArgument.name == declared.name, "\(method.name)'s reply names \(declared.name)")
            }
        }
    }

    /// docs/installing.md names the readers everyone may call under the shipped policy: exactly the
    /// methods the shipped file lets everyone call.
    @Test func installingNamesTheReadersTheShippedPolicyAllows() throws {
        let policy = try Self.read("dbus/org.navd.Navigator1.conf")
        let allowed = policy.components(separatedBy: "send_member=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let installing = try Self.read("docs/installing.md")
        let sentence = try #require(installing.range(of: "call the readers (")).upperBound
        let listed = Self.codeSpans(String(installing[sentence...].prefix { $0 != ")" && $0 != ":" }))
        #expect(Set(listed) == Set(allowed), "docs/installing.md's readers against the shipped policy")
        #expect(listed.count == allowed.count)
    }
}
