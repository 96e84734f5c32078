import DBus
import NavigatorProtocol
import Foundation
import NavdClient
import TestSupport
import Testing

/// navwatch's follow rules, driven by a scripted peer on a real private bus (see NavwatchScriptedNavigator):
/// a jump in revisions makes it fetch the state, a stale signal is ignored, a vanished owner prints the
/// marker, and a new owner's start-up signal resyncs it.
@Suite("navwatch follows the rules", .serialized, .enabled(if: EndToEnd.clientsAvailable), .timeLimit(.minutes(1)))
struct NavwatchScriptedTests {
    @Test("after a missed signal it fetches the state; stale signals are ignored")
    func missedSignal() throws {
        try Peer.watchedFromRevision1 { peer, watch in
            try peer.emit("push", Peer.rainbow(2, ["orange"]))
            watch.waitForLines(2)
            let callsBefore = peer.getStateCalls
            // Revision 3 and 4 are never signalled; by the time navwatch asks, navd is at 5.
            peer.setState(Peer.rainbow(5, ["blue"]))
            try peer.emit("push", Peer.rainbow(4, ["orange", "yellow", "green"]), makeCurrent: false)
            watch.waitForLines(3)
            #expect(peer.getStateCalls == callsBefore + 1)
            try peer.emit("pop", Peer.rainbow(3, ["orange"]), makeCurrent: false)  // stale: ignored
            try peer.emit("push", Peer.rainbow(6, ["blue", "green"]))
            watch.waitForLines(4)
            #expect(watch.stop(with: SIGINT) == 0)
            #expect(watch.outputLines == [
                "1 state rainbow: red",
                "2 push rainbow: red > orange",
                "5 state rainbow: red > blue",
                "6 push rainbow: red > blue > green",
            ])
        }
    }

    @Test("navd vanishing prints the marker; a new owner's start-up signal resyncs (line and JSON mode)")
    func goneAndBack() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        var peer: Peer? = try Peer(bus: bus, state: Peer.rainbow(7, ["orange"]))
        let lines = try startNavwatch([], bus: bus)
        let json = try startNavwatch(["--json"], bus: bus)
        lines.waitForLines(1)
        json.waitForLines(1)
        peer?.stop()
        peer = nil
        lines.waitForLines(2)
        json.waitForLines(2)
        let restarted = try Peer(bus: bus, state: Peer.rainbow(1))
        try restarted.emit("start", Peer.rainbow(1))
        try restarted.emit("push", Peer.rainbow(2, ["yellow"]))
        lines.waitForLines(4)
        json.waitForLines(4)
        #expect(lines.stop(with: SIGTERM) == 0)
        #expect(json.stop(with: SIGTERM) == 0)
        #expect(lines.outputLines == [
            "7 state rainbow: red > orange", "-- navd gone", "1 start rainbow: red", "2 push rainbow: red > yellow",
        ])
        expectJSONLines(json.outputLines, [
            ##"{"revision": 7, "cause": "state", "tab": "rainbow", "path": [{"id": "red-1", "route": "red", "presentation": "root", "params": {}}, {"id": "orange-7", "route": "orange", "presentation": "push", "params": {}}], "top": "orange", "depth": 2}"##,
            ##"{"event": "gone"}"##,
            ##"{"revision": 1, "cause": "start", "tab": "rainbow", "path": [{"id": "red-1", "route": "red", "presentation": "root", "params": {}}], "top": "red", "depth": 1}"##,
            ##"{"revision": 2, "cause": "push", "tab": "rainbow", "path": [{"id": "red-1", "route": "red", "presentation": "root", "params": {}}, {"id": "yellow-2", "route": "yellow", "presentation": "push", "params": {}}], "top": "yellow", "depth": 2}"##,
        ])
    }

    @Test("a new owner without a start-up signal is resynced by GetState")
    func ownerWithoutSignal() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        var peer: Peer? = try Peer(bus: bus, state: Peer.rainbow(3))
        let watch = try startNavwatch(["--lines"], bus: bus)
        watch.waitForLines(1)
        peer?.stop()
        peer = nil
        watch.waitForLines(2)
        let quiet = try Peer(bus: bus, state: Peer.rainbow(9, ["green"]))
        #expect(watch.waitForLines(3).last == "9 state rainbow: red > green")
        #expect(quiet.getStateCalls >= 1)
        #expect(watch.stop(with: SIGINT) == 0)
    }

    @Test("--format, --once, --tree and identical lines printed once")
    func formats() throws {
        try NavwatchScriptedNavigator.onPrivateBus(Peer.rainbow(4, ["orange"], modal: .sheet)) { bus, peer in
            let once = try ChildProcess.run(
                Products.url("navwatch"), ["--address", bus.address, "--once", "--format", "{revision}|{cause}|{tab}|{top}|{depth}|{path}"],
                environment: bus.environment, timeout: 20)
            #expect(once.status == 0)
            #expect(once.stdout == "4|state|rainbow|modal|3|red > orange > [sheet] modal\n")
            let tree = try ChildProcess.run(Products.url("navwatch"), ["--address", bus.address, "--once", "--tree"],
                                            environment: bus.environment, timeout: 20)
            #expect(tree.stdout.hasPrefix("4 state rainbow: red > orange > [sheet] modal\n  * rainbow\n"), "\(tree.stdout)")
            #expect(tree.stdout.contains("[sheet] modal  (modal-4)  <- top"))
            let watch = try startNavwatch(["--format", "{top}"], bus: bus)
            watch.waitForLines(1)
            try peer.emit("dismiss", Peer.rainbow(5, ["orange"]))
            try peer.emit("replace", Peer.rainbow(6, ["orange"]))  // same {top}: not printed again
            try peer.emit("push", Peer.rainbow(7, ["orange", "green"]))
            watch.waitForLines(3)
            #expect(watch.stop(with: SIGINT) == 0)
            #expect(watch.outputLines == ["modal", "orange", "green"])
        }
    }

    @Test("--once without navd exits 3 after the gone marker")
    func onceWithoutNavd() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let result = try ChildProcess.run(Products.url("navwatch"), ["--address", bus.address, "--once"],
                                          environment: bus.environment, timeout: 20)
        #expect(result.status == 3)
        #expect(result.stdout == "-- navd gone\n")
    }

    @Test("--once --tree whose GetTree fails after GetState answered exits 3 after the gone marker, not 0 with nothing")
    func onceTreeWhoseGetTreeFails() throws {
        try Peer.onPrivateBus(Peer.rainbow(4, ["orange"])) { bus, peer in
            peer.failGetTree()
            let result = try ChildProcess.run(Products.url("navwatch"), ["--address", bus.address, "--once", "--tree"],
                                              environment: bus.environment, timeout: 20)
            #expect(result.status == 3)
            #expect(result.stdout == "-- navd gone\n")
        }
    }
}

/// What navwatch does when the bus itself goes away.
@Suite("navwatch and a lost bus", .enabled(if: EndToEnd.clientsAvailable), .timeLimit(.minutes(1)))
struct NavwatchLostBusTests {
    @Test("the bus going away prints the marker and exits 3")
    func busGone() throws {
        let bus = try PrivateBus()
        let peer = try NavwatchScriptedNavigator(bus: bus, state: NavwatchScriptedNavigator.rainbow(2, ["teal"]))
        let watch = try startNavwatch(["--lines"], bus: bus)
        watch.waitForLines(1)
        bus.stop()
        #expect(watch.waitForExit(timeout: 10) == 3)
        #expect(watch.outputLines == ["2 state rainbow: red > teal", "-- navd gone"])
        #expect(watch.stderrText.contains("went away"))
        peer.stop()
    }
}

/// Signals that do not come from navd's owner are not believed.
@Suite("navwatch believes only navd", .enabled(if: EndToEnd.clientsAvailable), .timeLimit(.minutes(1)))
struct NavwatchSpoofTests {
    @Test("a StackChanged sent straight to navwatch by another peer is ignored")
    func spoofedSignal() throws {
        try NavwatchScriptedNavigator.onPrivateBus(NavwatchScriptedNavigator.rainbow(1)) { bus, peer in
            let watch = try startNavwatch(["--lines"], bus: bus)
            watch.waitForLines(1)
            let impostor = try Connection(.address(bus.address))
            let listNames = try Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                   interface: "org.freedesktop.DBus", member: "ListNames")
            let names = try impostor.call(listNames).body().first?.arrayValues?.compactMap(\.stringValue) ?? []
            for name in names where name.hasPrefix(":") && name != impostor.uniqueName {
                let fake = try Message.signal(path: Navigator.objectPath.rawValue, interface: Navigator.interfaceName,
                                              member: Navigator.stackChanged.name)
                try fake.append([.uint64(2), .string("spoof"), .string("rainbow"),
                                 NavwatchScriptedNavigator.pathValue(NavwatchScriptedNavigator.rainbow(2, ["purple"]).path)])
                try fake.setDestination(name)
                try impostor.send(fake)
            }
            impostor.flush()
            try peer.emit("push", NavwatchScriptedNavigator.rainbow(2, ["green"]))
            watch.waitForLines(2)
            #expect(watch.stop(with: SIGINT) == 0)
            #expect(watch.outputLines == ["1 state rainbow: red", "2 push rainbow: red > green"])
            impostor.close()
        }
    }
}
