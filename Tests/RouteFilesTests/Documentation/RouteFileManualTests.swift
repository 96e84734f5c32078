import Foundation
import RouteFiles
import TestFixtures
import Testing

/// navd.routes(5) documents every key the route-file reader accepts: each key of `RouteFileKeys` (which
/// the reader checks its mappings against) and each action verb with its keys (asked of the reader
/// itself) is an `.It Cm KEY` entry of the page's subsection for its place.
@Suite("navd.routes(5) documents the route file")
struct RouteFileManualTests {
    static let repository = URL(fileURLWithPath: Fixture.repository)

    /// The words of each `.It Cm …` line of the committed page, by the `.Ss` subsection they are in.
    static func documentedKeys() throws -> [String: Set<String>] {
        let page = try String(contentsOf: repository.appendingPathComponent("man/navd.routes.5"), encoding: .utf8)
        var section = "", keys: [String: Set<String>] = [:]
        for line in page.split(separator: "\n") {
            if line.hasPrefix(".Ss ") { section = String(line.dropFirst(4)) }
            if line.hasPrefix(".It Cm ") {
                let words = line.dropFirst(7).split(separator: " ").map(String.init).filter { $0 != "," }
                keys[section, default: []].formUnion(words)
            }
        }
        return keys
    }

    /// The list after `marker` in the reader's refusal of `yaml` (up to `end`, or the message's end).
    static func listInRefusal(_ yaml: String, after marker: String, upTo end: String? = nil) throws -> [String] {
        let message = try #require(loadError(yaml)).problem
        let start = try #require(message.range(of: marker), "no '\(marker)' in: \(message)").upperBound
        var list = String(message[start...])
        if let end, let stop = list.range(of: end) { list = String(list[..<stop.lowerBound]) }
        if list == "no other keys" { return [] }
        return list.components(separatedBy: ", ")
    }

    @Test func everyKeyOfEveryMappingIsDocumentedInItsSubsection() throws {
        let documented = try Self.documentedKeys()
        for (place, keys) in RouteFileKeys.all {
            let undocumented = keys.filter { !(documented[place] ?? []).contains($0) }
            #expect(undocumented.isEmpty, "navd.routes(5), subsection \(place), does not document: \(undocumented)")
        }
    }

    /// The lists in RouteFileKeys are the ones the reader uses: an unknown key at each place is refused
    /// with exactly that list.
    @Test func theReaderRefusesAnUnknownKeyWithTheDeclaredList() throws {
        let probes: [(yaml: String, keys: [String])] = [
            ("zzz-probe: 1\n", RouteFileKeys.topLevel),
            ("tabs:\n  - { name: a, root: a, zzz-probe: 1 }\n", RouteFileKeys.tab),
            ("root: a\nroutes:\n  a: { zzz-probe: 1 }\n", RouteFileKeys.route),
            ("root: a\nroutes:\n  a:\n    params:\n      p: { type: int, zzz-probe: 1 }\n", RouteFileKeys.param),
            ("root: a\nlimits: { zzz-probe: 1 }\n", RouteFileKeys.limits),
            ("facts:\n  f: { type: bool, zzz-probe: 1 }\n", RouteFileKeys.fact),
            ("flows:\n  x: { start: a, zzz-probe: 1 }\n", RouteFileKeys.flow),
            ("flows:\n  x: { start: a, outputs: { done: { zzz-probe: 1 } } }\n", RouteFileKeys.flowOutput),
            ("guards:\n  f: { start: x, resume-on: done, zzz-probe: 1 }\n", RouteFileKeys.guardRule),
        ]
        for probe in probes {
            #expect(try Self.listInRefusal(probe.yaml, after: "known keys: ") == probe.keys, "\(probe.yaml)")
        }
    }

    @Test func everyActionVerbAndItsKeysAreDocumented() throws {
        let actions = try Self.documentedKeys()["Actions"] ?? []
        let handler = "root: a\nroutes:\n  a:\n    on:\n      e: "
        let verbs = try Self.listInRefusal(handler + "{}\n", after: "exactly one verb (", upTo: ")")
        #expect(verbs.count >= 15, "the reader's verbs: \(verbs)")
        var keys = Set(verbs)
        for verb in verbs {
            keys.formUnion(try Self.listInRefusal(handler + "{ \(verb): a, zzz-probe: 1 }\n", after: "\(verb) takes "))
        }
        keys.formUnion(try Self.listInRefusal(handler + "{ set-stack: [ { zzz-probe: 1 } ] }\n", after: "known keys: "))
        #expect(keys.isSuperset(of: ["push", "style", "on-output", "route", "params"]), "\(keys.sorted())")
        let undocumented = keys.subtracting(actions).sorted()
        #expect(undocumented.isEmpty, "navd.routes(5), subsection Actions, does not document: \(undocumented)")
    }
}
