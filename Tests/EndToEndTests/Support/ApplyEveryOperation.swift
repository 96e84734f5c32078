import NavdClient

/// Every Apply operation of the contract, run in batches against the demo graph from a fresh navd: each step
/// as a batch file's JSON and as the client's typed ops (a test checks the two read the same), and the tab and
/// routes of the path after it. `navctl apply` and `AsyncNavigator.apply` each run all of them.
enum ApplyEveryOperation {
    struct Step: Sendable {
        /// The batch as `navctl apply` reads it.
        let json: String
        /// The same batch as typed ops.
        let ops: [BatchOperation]
        /// The selected tab afterwards.
        let tab: String
        /// The routes of the path afterwards.
        let path: [String]
    }

    static let steps: [Step] = [
        Step(json: #"[{"op": "push", "route": "orange"}, {"op": "push", "route": "yellow"}, {"op": "replace", "route": "green"}]"#,
             ops: [.push("orange"), .push("yellow"), .replace("green")], tab: "rainbow", path: ["red", "orange", "green"]),
        Step(json: #"[{"op": "pop"}]"#, ops: [.pop], tab: "rainbow", path: ["red", "orange"]),
        Step(json: #"[{"op": "push", "route": "yellow"}, {"op": "popto", "target": "red"}]"#,
             ops: [.push("yellow"), .popTo("red")], tab: "rainbow", path: ["red"]),
        Step(json: #"[{"op": "setstack", "screens": ["red", {"route": "news-item", "params": {"id": 3}}]}]"#,
             ops: [.setStack([ScreenSpec(route: "red"), ScreenSpec(route: "news-item", params: ["id": .int(3)])])],
             tab: "rainbow", path: ["red", "news-item"]),
        Step(json: #"""
            [{"op": "present", "route": "modal", "style": "sheet"}, {"op": "present", "route": "modal", "style": "cover"},
             {"op": "dismiss"}]
            """#,
             ops: [.present("modal", style: .sheet), .present("modal", style: .cover), .dismiss],
             tab: "rainbow", path: ["red", "news-item", "modal"]),
        Step(json: #"[{"op": "dismissall"}]"#, ops: [.dismissAll], tab: "rainbow", path: ["red", "news-item"]),
        Step(json: #"[{"op": "push", "route": "orange"}, {"op": "push", "route": "yellow"}, {"op": "back"}]"#,
             ops: [.push("orange"), .push("yellow"), .back], tab: "rainbow", path: ["red", "news-item", "orange"]),
        Step(json: #"[{"op": "poptoroot"}]"#, ops: [.popToRoot], tab: "rainbow", path: ["red"]),
        Step(json: #"[{"op": "selecttab", "tab": "news"}]"#, ops: [.selectTab("news")], tab: "news", path: ["news-list"]),
        Step(json: #"[{"op": "send", "event": "call"}, {"op": "send", "event": "failed", "params": {"message": "boom"}}]"#,
             ops: [.send("call"), .send("failed", params: ["message": .string("boom")])],
             tab: "news", path: ["news-list", "call-error"]),
        Step(json: #"[{"op": "open", "target": "end"}]"#, ops: [.open("end")], tab: "rainbow", path: ["red", "purple"]),
        Step(json: #"[{"op": "open", "target": "root"}, {"op": "send", "event": "next"}]"#,
             ops: [.open("root"), .send("next")], tab: "rainbow", path: ["red", "orange"]),
        Step(json: #"[{"op": "selecttab", "tab": "profile"}, {"op": "start", "flow": "auth"}]"#,
             ops: [.selectTab("profile"), .start("auth")], tab: "profile", path: ["profile", "login"]),
        Step(json: #"[{"op": "finish", "output": "cancelled"}]"#, ops: [.finish("cancelled")],
             tab: "profile", path: ["profile"]),
        // `account` requires the fact signed-in: only with it set does the push land on account itself.
        Step(json: #"[{"op": "setfacts", "facts": {"signed-in": true}}, {"op": "push", "route": "account"}]"#,
             ops: [.setFacts(["signed-in": .bool(true)]), .push("account")], tab: "profile", path: ["profile", "account"]),
        // Back to the tree of the first step's revision (2); the facts stay.
        Step(json: #"[{"op": "revert", "revision": 2}]"#, ops: [.revert(to: 2)], tab: "rainbow", path: ["red", "orange", "green"]),
    ]
}
