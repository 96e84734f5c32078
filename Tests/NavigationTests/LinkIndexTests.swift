import Testing
@testable import Navigation
import RandomRouteGraphs
import RouteFiles

/// Which declared link pattern a link opens: the first in `routeOrder` that matches decides, as when
/// each pattern was tried in turn; `LinkIndex` only finds it without trying every one.
@Suite(.timeLimit(.minutes(1)))
struct LinkIndexTests {
    /// An untabbed graph: `home`, then `first` with link `firstLink`, then `second` with `secondLink`.
    static func graph(_ firstLink: String, _ secondLink: String, firstParams: String = "{ x: string, y: string }") throws -> RouteGraph {
        try RouteGraph.load(yaml: """
            root: home
            routes:
              home: {}
              first:
                params: \(firstParams)
                link: \(firstLink)
              second:
                params: { x: string, y: string }
                link: \(secondLink)
            """, file: "links.yaml")
    }

    /// The route and params `link` opens on top of `home`, or the error.
    static func open(_ link: String, in graph: RouteGraph) -> Result<Entry, NavigationError> {
        var coordinator = Coordinator(graph: graph)
        do {
            _ = try coordinator.perform(.open(link), at: 0)
            return .success(coordinator.path[coordinator.path.count - 1])
        } catch {
            return .failure(error)
        }
    }

    static func opened(_ link: String, in graph: RouteGraph) -> (route: String, params: [String: ParamValue])? {
        guard case .success(let entry) = open(link, in: graph) else { return nil }
        return (entry.route, entry.params)
    }

    static func refused(_ link: String, in graph: RouteGraph) -> NavigationError? {
        guard case .failure(let error) = open(link, in: graph) else { return nil }
        return error
    }

    @Test func theFirstMatchingPatternInRouteOrderWins() throws {
        let paramFirst = try Self.graph("/a/{x}", "/{y}/b")
        #expect(Self.opened("/a/b", in: paramFirst)?.route == "first")
        #expect(Self.opened("/a/b", in: paramFirst)?.params == ["x": .string("b")])
        let paramSecond = try Self.graph("/{y}/b", "/a/{x}")
        #expect(Self.opened("/a/b", in: paramSecond)?.route == "first")
        #expect(Self.opened("/a/b", in: paramSecond)?.params == ["y": .string("a")])
        // Only one matches: it opens, wherever it is declared.
        #expect(Self.opened("/a/c", in: paramSecond)?.params == ["x": .string("c")])
        #expect(Self.opened("/z/b", in: paramFirst)?.params == ["y": .string("z")])
    }

    @Test func aLiteralHasNoPriorityOverAParam() throws {
        let literalFirst = try Self.graph("/a/b", "/{y}/b")
        #expect(Self.opened("/a/b", in: literalFirst)?.route == "first")
        let literalSecond = try Self.graph("/{y}/b", "/a/b")
        #expect(Self.opened("/a/b", in: literalSecond)?.route == "first")
        #expect(Self.opened("/a/b", in: literalSecond)?.params == ["y": .string("a")])
        // The same pattern twice: the first route's.
        #expect(Self.opened("/a/b", in: try Self.graph("/a/{x}", "/a/{y}"))?.params == ["x": .string("b")])
    }

    @Test func aParamNeverMatchesAnEmptySegment() throws {
        let graph = try Self.graph("/a/{x}", "/{y}/b")
        #expect(Self.refused("/a/", in: graph) == .badTarget("segment 'a' of '/a/' names no route; routes: home, first, second"))
        #expect(Self.refused("//b", in: graph) == .badTarget("segment 1 of '//b' is empty; remove the doubled or trailing '/'"))
        #expect(Self.refused("/a", in: graph) == .badTarget("segment 'a' of '/a' names no route; routes: home, first, second"))
    }

    @Test func aMatchingPatternsErrorsAreFinal() throws {
        // `first` matches but its param does not convert: `second`, which would open, is not tried.
        let graph = try Self.graph("/n/{x}", "/n/{y}", firstParams: "{ x: int }")
        #expect(Self.refused("/n/abc", in: graph) == .invalidParams("param 'x' of route 'first' must be int (a decimal whole number), not 'abc' (in '/n/abc')"))
        #expect(Self.opened("/n/12", in: graph)?.params == ["x": .int(12)])
        #expect(Self.refused("/n/%zz", in: graph) == .badTarget("'%zz' in '/n/%zz' has bad percent-encoding; write %XX with two hex digits of UTF-8"))
        // A percent-encoded segment is a param's value, never a literal.
        #expect(Self.opened("/n/%31", in: graph)?.params == ["x": .int(1)])
        #expect(Self.refused("/%6E/1", in: graph) == .badTarget("segment '%6E' of '/%6E/1' names no route; routes: home, first, second"))
    }

    @Test func aLinkMatchingNoPatternGetsTheGenericPathsError() throws {
        let graph = try Self.graph("/a/{x}", "/{y}/b")
        #expect(Self.refused("/c/d", in: graph) == .badTarget("segment 'c' of '/c/d' names no route; routes: home, first, second"))
        #expect(Self.refused("/a/b/c", in: graph) == .badTarget("segment 'a' of '/a/b/c' names no route; routes: home, first, second"))
        #expect(Self.refused("/first;z=1", in: graph) == .invalidParams("route 'first' has no param 'z' (in '/first;z=1'); its params: x, y"))
        #expect(Self.opened("/first;x=1", in: graph)?.params == ["x": .string("1")])
    }

    /// Each pattern tried in `routeOrder`, as `resolveLink` did before `LinkIndex`: the reference.
    static func scanned(_ link: String, in graph: RouteGraph) -> Result<LinkPlan, NavigationError> {
        let links = LinkIndex(graph)
        let segments = link.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        do {
            let structure: RouteGraph.GenericPath
            do {
                structure = try graph.genericPath(link, segments, links: links)
            } catch {
                for name in graph.routeOrder {
                    guard let spec = graph.routes[name], let pattern = spec.link.flatMap(LinkPattern.parse) else { continue }
                    if let plan = try graph.match(link, segments, against: pattern, of: spec, links: links) { return .success(plan) }
                }
                throw graph.error(error, in: link)
            }
            return .success(try graph.resolveGenericPath(link, structure))
        } catch let error as NavigationError {
            return .failure(error)
        } catch {
            Issue.record("unexpected \(error)")
            return .failure(.badTarget("unexpected"))
        }
    }

    @Test func theIndexFindsWhatTryingEachPatternFinds() throws {
        var random = SeededGenerator(seed: 20_261_126)
        let literals = ["a", "b", "c"]
        let linkSegments = ["a", "b", "c", "", "%zz", "%61", "7", "x", "home", "r0", "r1;p0=1", "\u{212A}"]
        var compared = 0
        var outcomes: Set<String> = []
        for _ in 0..<150 {
            var yaml = "root: home\nroutes:\n  home: {}\n"
            let literalsToo = random.next() % 2 == 0 ? "\n  K: {}\n" : ""
            for route in 0..<Int(random.next() % 6 + 1) {
                var pattern: [String] = []
                var params: [String] = []
                for position in 0..<Int(random.next() % 3 + 1) {
                    if random.next() % 2 == 0 {
                        pattern.append(random.next() % 8 == 0 ? "K" : literals[Int(random.next() % 3)])
                    } else {
                        pattern.append("{p\(position)}")
                        params.append("p\(position): \(random.next() % 3 == 0 ? "int" : "string")")
                    }
                }
                yaml += "  r\(route):\n    params: { \(params.joined(separator: ", ")) }\n    link: /\(pattern.joined(separator: "/"))\n"
            }
            var graph = try RouteGraph.load(yaml: yaml + literalsToo, file: "random.yaml")
            // The loader refuses a link to a route that cannot be pushed; a graph built in code may have one.
            for name in graph.routeOrder where random.next() % 5 == 0 { graph.routes[name]?.presentations = [.cover] }
            let links = LinkIndex(graph)
            for _ in 0..<40 {
                let link = "/" + (0..<Int(random.next() % 3 + 1)).map { _ in linkSegments[Int(random.next() % UInt64(linkSegments.count))] }.joined(separator: "/")
                let indexed: Result<LinkPlan, NavigationError>
                do { indexed = .success(try graph.resolveLink(link, links: links)) } catch { indexed = .failure(error) }
                #expect(indexed == Self.scanned(link, in: graph), "\(link) in\n\(yaml)")
                compared += 1
                switch indexed {
                case .success(let plan): outcomes.insert(plan.screens.count > 1 && plan.screens[1].route != "home" ? "pattern" : "generic")
                case .failure(let error): outcomes.insert(error.message.contains("bad percent-encoding; write %XX") ? "encoding" : error.name)
                }
            }
        }
        #expect(compared == 6_000)
        #expect(outcomes == ["pattern", "generic", "encoding", "BadTarget", "InvalidParams", "NotPresentable"])
    }
}
