import Testing
import Navigation
import RouteFiles

/// `access:` in a route file (docs/multi-user.md): read as written, names resolved against this
/// machine's real user database (root and its group exist everywhere), each malformed entry refused
/// naming file, line and the entry; and the decision, on plain values.
@Suite(.timeLimit(.minutes(1)))
struct RouteFileAccessTests {
    static let base = "root: home\nroutes: { home: {} }\n"

    func loaded(_ access: String) throws -> RouteGraph {
        try RouteGraph.load(yaml: Self.base + access, file: "shop.yaml").resolvingAccess(file: "shop.yaml")
    }

    func refusal(_ access: String) -> RouteFileError? {
        do {
            _ = try loaded(access)
            Issue.record("the route file loaded but should not have")
            return nil
        } catch let error as RouteFileError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func listsAreReadAsWrittenAndNamesResolvedToIds() throws {
        let graph = try loaded("access:\n  change: [root, \"1001\"]\n  read: [\"@root\", \"@2000\"]\n")
        let access = try #require(graph.access)
        #expect(access.change == [
            Access.Entry(kind: .user, name: "root", line: 4, id: 0),
            Access.Entry(kind: .user, name: "1001", line: 4, id: 1001),
        ])
        #expect(access.read == [
            Access.Entry(kind: .group, name: "root", line: 5, id: 0),
            Access.Entry(kind: .group, name: "2000", line: 5, id: 2000),
        ])
        #expect(access.written.map(\.key) == ["change", "read"])
        #expect(access.written.map(\.entries) == [["root", "1001"], ["@root", "@2000"]])
    }

    @Test func withoutAccessTheGraphHasNone() throws {
        #expect(try loaded("").access == nil)
        let graph = try loaded("access: { change: [] }\n")
        #expect(graph.access == Access(change: [], read: nil))
    }

    @Test func anUnknownUserOrGroupIsRefusedWithItsLineAndName() {
        let user = refusal("access:\n  change:\n    - root\n    - no-such-user-navd\n")
        #expect(user?.description == "shop.yaml:6: access.change[1]: no user 'no-such-user-navd' on this system (the user database has none); create it, or write its number")
        let group = refusal("access:\n  read: [\"@no-such-group-navd\"]\n")
        #expect(group?.line == 4)
        #expect(group?.problem.hasPrefix("no group 'no-such-group-navd'") == true)
    }

    @Test(arguments: [
        ("access: [alice]\n", 3, "access: expected a mapping"),
        ("access: { change: alice }\n", 3, "access.change: expected a list of users and @groups"),
        ("access: { change: [\"\"] }\n", 3, "access.change[0]: an empty user name"),
        ("access: { read: [\"@\"] }\n", 3, "access.read[0]: an empty group name"),
        ("access: { change: [\"4294967295\"] }\n", 3, "access.change[0]: user id 4294967295 is out of range"),
        ("access: { read: [\"@99999999999\"] }\n", 3, "access.read[0]: group id 99999999999 is out of range"),
        ("access: { change: [[alice]] }\n", 3, "access.change[0]: expected a user name"),
        ("access: { change: [\"al ice\"] }\n", 3, "access.change[0]: 'al ice' is not a user name"),
        ("access:\n  owners: [alice]\n", 4, "access.owners: unknown key 'owners'; known keys: change, read"),
    ])
    func malformedAccessIsRefused(_ access: String, _ line: Int, _ start: String) {
        let error = refusal(access)
        #expect(error?.file == "shop.yaml")
        #expect(error?.line == line)
        #expect(error.map { "\($0.keyPath): \($0.problem)".hasPrefix(start) } == true, "\(String(describing: error))")
    }

    @Test func changeIncludesReadAndALeftOutReadLetsEveryoneRead() {
        let alice = Access.Entry(kind: .user, name: "alice", id: 1001)
        let shop = Access.Entry(kind: .group, name: "shop", id: 2000)
        let monitor = Access.Entry(kind: .group, name: "monitor", id: 3000)
        let open = Access(change: [alice, shop])
        #expect(open.allows(uid: 1001, groups: [1001], .change))
        #expect(open.allows(uid: 1002, groups: [2000], .change))
        #expect(!open.allows(uid: 1002, groups: [1002], .change))
        #expect(open.allows(uid: 1002, groups: [1002], .read))
        let closed = Access(change: [alice], read: [monitor])
        #expect(closed.allows(uid: 1001, groups: [], .read))
        #expect(closed.allows(uid: 5, groups: [3000], .read))
        #expect(!closed.allows(uid: 5, groups: [3000], .change))
        #expect(!closed.allows(uid: 5, groups: [2000], .read))
        let onlyChangers = Access(change: [alice], read: [])
        #expect(!onlyChangers.allows(uid: 5, groups: [], .read))
        #expect(Access(change: nil).allows(uid: 5, groups: [], .read))
        #expect(!Access(change: nil).allows(uid: 5, groups: [], .change))
        // An unresolved entry matches nobody.
        #expect(!Access(change: [Access.Entry(kind: .user, name: "ghost")]).allows(uid: 0, groups: [0], .change))
    }

    @Test func whoIsAllowedIsSaidInWords() {
        let access = Access(
            change: [Access.Entry(kind: .user, name: "alice"), Access.Entry(kind: .group, name: "shop")],
            read: [Access.Entry(kind: .group, name: "a"), Access.Entry(kind: .group, name: "b")])
        #expect(access.describeAllowed(.change) == "user alice and group shop")
        #expect(access.describeAllowed(.read) == "user alice and groups shop, a and b")
        #expect(Access(change: []).describeAllowed(.change) == "only root and navd's own user")
        #expect(Access(change: []).describeAllowed(.read) == "everyone")
    }
}
