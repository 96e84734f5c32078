import Testing
@testable import Navigation
import RouteFiles

/// The load-time checks of facts, flows, guards and handlers: each error names file, line, key and problem.
@Suite(.timeLimit(.minutes(1)))
struct RouteFileCoordinationTests {
    static let base = """
        root: home
        facts:
          signed-in: { type: bool, default: false }
          name: { type: string, default: anon }
        flows:
          auth:
            start: login
            presentation: cover
            outputs:
              done: { params: { user: { type: string, required: true } } }
        guards:
          signed-in: { start: auth, resume-on: done }
        routes:
          home: {}
          login: { presentations: [cover] }
          item: { params: { id: { type: int, required: true } } }
          secret: { requires: [signed-in] }

        """

    func error(_ extra: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            _ = try RouteGraph.load(yaml: Self.base + extra, file: "r.yaml")
            Issue.record("loaded", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error.description
        }
    }

    func onHome(_ handler: String) -> String { "on:\n  go: \(handler)\n" }

    @Test func theBaseLoadsWithItsDeclarations() throws {
        let graph = try RouteGraph.load(yaml: Self.base + onHome("[ { set-facts: { name: $event.who } }, { push: item, params: { id: 7 } } ]"), file: "r.yaml")
        #expect(graph.facts["name"] == FactSpec(name: "name", type: .string, defaultValue: .string("anon")))
        #expect(graph.guards["signed-in"] == GuardSpec(fact: "signed-in", flow: "auth", resumeOn: "done"))
        #expect(graph.routes["secret"]?.requires == ["signed-in"])
        #expect(graph.on.byEvent["go"] == .actions([.setFacts(["name": .event("who")]), .push(route: "item", params: ["id": .literal(.int(7))])]))
    }

    @Test func verbsAndTheirArguments() {
        #expect(error(onHome("{ jump: home }")) == "r.yaml:19: on.go: an action is a map with exactly one verb (push, replace, present, pop, root, dismiss, dismiss-all, back, pop-to, tab, open, set-stack, start, finish, set-facts); found none")
        #expect(error(onHome("teleport")) == "r.yaml:19: on.go: 'teleport' is not an action; bare actions are pop, root, dismiss, dismiss-all, back, others are maps such as { push: ROUTE }")
        #expect(error(onHome("{ push: home, style: sheet }")) == "r.yaml:19: on.go.style: unknown key 'style'; push takes params")
        #expect(error(onHome("{ present: login }")) == "r.yaml:19: on.go: present needs `style: sheet` or `style: cover`")
        #expect(error(onHome("{ present: login, style: sheet }")) == "r.yaml:19: on.go.style: route 'login' cannot be shown as sheet; its presentations: cover")
        #expect(error(onHome("{ pop: 2 }"))?.hasSuffix("'pop' takes no argument; write it as a bare string: - pop") == true)
        #expect(error(onHome("[]")) == "r.yaml:19: on.go: an empty list of actions; write `none` to ignore the event")
    }

    @Test func namesMustExist() {
        #expect(error(onHome("{ push: nowhere }")) == "r.yaml:19: on.go.push: no route 'nowhere' under `routes:`")
        #expect(error(onHome("{ start: checkout }")) == "r.yaml:19: on.go.start: no flow 'checkout' under `flows:`")
        #expect(error(onHome("{ tab: news }")) == "r.yaml:19: on.go.tab: the app has no tabs")
        #expect(error(onHome("{ set-facts: { admin: true } }")) == "r.yaml:19: on.go.set-facts.admin: no fact 'admin' under `facts:`")
        #expect(error(onHome("{ finish: nope }")) == "r.yaml:19: on.go.finish: no flow declares output 'nope'")
        #expect(error(onHome("{ open: /nowhere }"))?.hasPrefix("r.yaml:19: on.go.open: '/nowhere' is neither a named state nor a link that opens") == true)
        #expect(error(onHome("{ start: auth, on-output: { failed: pop } }")) == "r.yaml:19: on.go.on-output.failed: flow 'auth' has no output 'failed'; its outputs: done")
    }

    @Test func literalTypesAndReferences() {
        #expect(error(onHome("{ push: item, params: { id: seven } }")) == "r.yaml:19: on.go.params.id: expected a int value or a $ reference")
        #expect(error(onHome("{ push: item }")) == "r.yaml:19: on.go.params: route 'item' needs param 'id' (int); add it under `params:`")
        #expect(error(onHome("{ push: item, params: { id: 1, x: 2 } }")) == "r.yaml:19: on.go.params.x: route 'item' has no param 'x'; its params: id")
        #expect(error(onHome("{ set-facts: { signed-in: yes please } }")) == "r.yaml:19: on.go.set-facts.signed-in: expected a bool value or a $ reference")
        #expect(error(onHome("{ push: item, params: { id: $output.user } }")) == "r.yaml:19: on.go.params.id: '$output.user': $output. is only allowed inside `on-output`")
        #expect(error(onHome("{ push: item, params: { id: $session.id } }")) == "r.yaml:19: on.go.params.id: '$session.id' is not a reference; use $event.NAME, $screen.NAME, $flow.NAME or $output.NAME, or $$ for a literal '$'")
        #expect(error(onHome("{ start: auth, on-output: { done: { push: item, params: { id: $output.who } } } }")) == "r.yaml:19: on.go.on-output.done.params.id: '$output.who': the output has no param 'who'; its params: user")
        #expect(error(onHome("{ start: auth, on-output: { done: { push: item, params: { id: $output.user } } } }")) == "r.yaml:19: on.go.on-output.done.params.id: '$output.user' is string, but the value must be int")
        let dollar = try? RouteGraph.load(yaml: Self.base + onHome("{ set-facts: { name: $$ok } }"), file: "r.yaml")
        #expect(dollar?.on.byEvent["go"] == .actions([.setFacts(["name": .literal(.string("$ok"))])]))
    }

    @Test func factsGuardsAndRequires() {
        func load(_ yaml: String) -> String? {
            do { _ = try RouteGraph.load(yaml: yaml, file: "g.yaml"); return nil } catch { return error.description }
        }
        #expect(load("root: home\nfacts:\n  n: { type: int, default: many }\nroutes:\n  home: {}\n") == "g.yaml:3: facts.n.default: the default of fact 'n' must be int")
        #expect(load("root: home\nfacts:\n  n: { type: int }\nroutes:\n  home: {}\n  x: { requires: [n] }\n") == "g.yaml:6: routes.x.requires: fact 'n' is int; `requires` names bool facts only")
        #expect(load("root: home\nroutes:\n  home: {}\n  x: { requires: [ghost] }\n") == "g.yaml:4: routes.x.requires: no fact 'ghost' under `facts:`")
        #expect(load("root: home\nfacts:\n  f: { type: bool }\nroutes:\n  home: { requires: [f] }\n") == "g.yaml:1: root: root route 'home' has `requires`; the root must always be showable")
        let loop = "root: home\nfacts:\n  f: { type: bool }\nflows:\n  a: { start: x, outputs: { ok: {} } }\nguards:\n  f: { start: a, resume-on: ok }\nroutes:\n  home: {}\n  x: { requires: [f] }\n"
        #expect(load(loop) == "g.yaml:7: guards.f.start: flow 'a' starts at route 'x', which itself requires 'f': the guard would loop")
        let noOutput = "root: home\nfacts:\n  f: { type: bool }\nflows:\n  a: { start: home, outputs: { ok: {} } }\nguards:\n  f: { start: a, resume-on: done }\nroutes:\n  home: {}\n"
        #expect(load(noOutput) == "g.yaml:7: guards.f.resume-on: flow 'a' has no output 'done'; its outputs: ok")
        let startParams = "root: home\nflows:\n  a: { start: item }\nroutes:\n  home: {}\n  item: { params: { id: { type: int, required: true } } }\n"
        #expect(load(startParams) == "g.yaml:3: flows.a.params: start route 'item' requires param 'id' (int); declare it as a required param of the flow")
        let presentation = "root: home\nflows:\n  a: { start: home, presentation: sheet }\nroutes:\n  home: {}\n"
        #expect(load(presentation) == "g.yaml:3: flows.a.presentation: flow 'a' shows 'home' as sheet, but that route's presentations lack sheet")
        let tabRoot = "tabs:\n  - { name: t, root: home }\nfacts:\n  f: { type: bool }\nroutes:\n  home: { requires: [f] }\n"
        #expect(load(tabRoot) == "g.yaml:2: tabs[0].root: root route 'home' has `requires`; a tab's root must always be showable")
    }
}
