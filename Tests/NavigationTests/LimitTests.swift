import Testing
@testable import Navigation
import RouteFiles

@Suite(.timeLimit(.minutes(1)))
struct LimitTests {
    @Test func depthLimits() throws {
        var coordinator = Coordinator(graph: try smallGraph())  // stack 5, path 6
        for _ in 0..<4 { coordinator.must(push("list")) }
        #expect(coordinator.refuse(push("list")) == .limitExceeded("the stack would hold 6 screens; the limit is 5"))
        coordinator.must(present("alert", "sheet"))
        #expect(coordinator.refuse(present("alert", "cover")) == .limitExceeded("the path would hold 7 screens; the limit is 6"))
        #expect(coordinator.refuse(push("list")) == .limitExceeded("the path would hold 7 screens; the limit is 6"))
        #expect(coordinator.refuse(.setStack([ScreenRequest(route: "alert"), ScreenRequest(route: "list")])) == .limitExceeded("the path would hold 7 screens; the limit is 6"))
        coordinator.must(.dismiss)
        #expect(coordinator.refuse(.setStack(Array(repeating: ScreenRequest(route: "list"), count: 6))) == .limitExceeded("the stack would hold 6 screens; the limit is 5"))
        // Depth comes last: a bad name is reported first.
        #expect(coordinator.refuse(push("nope"))?.name == "UnknownRoute")
    }

    @Test func stringAndParamSizeLimits() throws {
        let coordinator = Coordinator(graph: try smallGraph())  // strings 100, params 200
        let long = String(repeating: "x", count: 101)
        #expect(coordinator.refuse(push(long)) == .limitExceeded("the route name is 101 bytes long; the limit is 100"))
        #expect(coordinator.refuse(.popTo(target: long))?.name == "LimitExceeded")
        #expect(coordinator.refuse(.open(long))?.name == "LimitExceeded")
        #expect(coordinator.refuse(push("list", [long: .int(1)]))?.name == "LimitExceeded")
        let big = InputValue.string(String(repeating: "y", count: 200))
        #expect(coordinator.refuse(push("list", ["filter": big]))?.message.hasPrefix("the params take about") == true)
        // Sizes come before names: an unknown but over-long route is LimitExceeded.
        #expect(coordinator.refuse(.replace(route: long, params: [:]))?.name == "LimitExceeded")
        let tabbed = demo()
        #expect(tabbed.refuse(.selectTab(String(repeating: "t", count: 4097)))?.name == "LimitExceeded")
    }

    @Test func paramsSizeEstimate() {
        #expect(InputValue.estimatedEncodedSize(of: [:]) == 4)
        #expect(InputValue.estimatedEncodedSize(of: ["id": .int(1)]) == 4 + (4 + 2 + 1) + (3 + 8))
        #expect(InputValue.estimatedEncodedSize(of: ["s": .string("abc")]) == 4 + (4 + 1 + 1) + (3 + 4 + 3 + 1))
    }

    @Test func errorOrderIsSizesNamesParamsPresentation() {
        let coordinator = demo()
        #expect(coordinator.refuse(push("nope", ["x": .variant(.int(1))]))?.name == "UnknownRoute")
        #expect(coordinator.refuse(push("login", ["x": .int(1)]))?.name == "InvalidParams")
        #expect(coordinator.refuse(present("news-item", "bogus"))?.name == "InvalidParams")
    }

    @Test("each key reads and writes its own field, and named lists every limit once, in the keys' order")
    func eachKeyNamesItsField() {
        var limits = Limits()
        for (index, key) in Limits.Key.allCases.enumerated() { limits[key] = 1000 + index }
        #expect(limits.maxPathDepth == 1000 && limits.maxStackDepth == 1001 && limits.maxParamsBytes == 1002)
        #expect(limits.maxApplyOps == 1003 && limits.maxStringBytes == 1004 && limits.maxUndo == 1005 && limits.maxHistory == 1006)
        #expect(limits.named.map(\.name) == Limits.Key.allCases.map(\.rawValue))
        #expect(limits.named.map(\.value) == Array(1000...1006))
        #expect(Limits([.maxUndo: 7]).named.map(\.value) == [128, 128, 65536, 256, 4096, 7, 1000], "the defaults, one key over them")
    }
}
