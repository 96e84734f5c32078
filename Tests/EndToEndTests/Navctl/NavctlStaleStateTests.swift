import NavdClient
import TestSupport
import Testing

/// After a change, navctl fetches the state to print it. It printed that state under the revision of the
/// change's reply, whatever revision the state was read at. It now prints the state's own revision, and says
/// both when they differ. The scripted peer answers Push with revision 12 while its state is at 11.
@Suite("navctl prints a fetched state at its own revision", .serialized, .enabled(if: EndToEnd.clientsAvailable),
       .timeLimit(.minutes(1)))
struct NavctlStaleStateTests {
    @Test("a change answered at 12, a state read at 11: both revisions said, the state's own on its line")
    func stateReadAtAnotherRevision() throws {
        try NavwatchScriptedNavigator.onPrivateBus(Peer.rainbow(11, ["orange"])) { bus, peer in
            peer.setPushAnswer(revision: 12, id: "yellow-12")
            for environment in [[:], ["NAVCTL_NO_FAST_PATH": "1"]] {
                try bus.navctl("push", "yellow", environment: environment).expectOutput("12 push\n11 state rainbow: red > orange\n")

                // The state as read (at 11), what the change answered (12), and the pushed screen's id.
                try bus.navctl("push", "yellow", "--json", environment: environment).expectJSON("""
                    {"revision": 11, "cause": "state", "tab": "rainbow",
                     "path": [{"id": "red-1", "route": "red", "presentation": "root", "params": {}},
                              {"id": "orange-11", "route": "orange", "presentation": "push", "params": {}}],
                     "top": "orange", "depth": 2, "change": {"revision": 12, "cause": "push"}, "id": "yellow-12"}
                    """)
            }
        }
    }

    @Test("a state read at the change's revision prints as one line, as always")
    func stateReadAtTheSameRevision() throws {
        try NavwatchScriptedNavigator.onPrivateBus(Peer.rainbow(12, ["orange", "yellow"])) { bus, peer in
            peer.setPushAnswer(revision: 12, id: "yellow-12")
            let text = try bus.navctl("push", "yellow")
            #expect(text.stdout == "12 push rainbow: red > orange > yellow\n", "\(text)")
        }
    }
}
