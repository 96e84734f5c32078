import Foundation
import Glibc
import NavdClient
import TestSupport
import Testing

/// The GTK view (`Examples/gtk-view`) in a real X server (Xvfb) on a private bus with a real navd: it
/// follows navd, reports clicks and keys, and shows refusals and navd's absence. What it drew is read
/// from its `--log-renders` lines (read back from its widgets once painted); what it caused is read
/// from navd with GetState, never from the window; each step's screenshot is compared with the last.
@Suite("the GTK view", .timeLimit(.minutes(2)))
struct GtkViewTests {
    @Test func theDocumentQuotesTheViewAsItIs() throws {
        let section = try String(contentsOfFile: GtkView.repository + "/docs/gtk-view.md", encoding: .utf8)
        let block = try #require(section.components(separatedBy: "```python\n").dropFirst().first?
            .components(separatedBy: "```").first)
        var sources = ""
        for file in ["follow.py", "view.py"] {
            sources += try String(contentsOfFile: "\(GtkView.repository)/Examples/gtk-view/\(file)", encoding: .utf8)
        }
        let quoted = block.split(separator: "\n").map(String.init)
        #expect(quoted.count >= 20)
        for line in quoted {
            #expect(sources.contains(line + "\n"), "docs/gtk-view.md quotes a line the view does not have: \(line)")
        }
    }

    @Test(.enabled(if: GtkView.available))
    func theWindowFollowsNavdReportsWhatTheUserDidAndWaitsForNavd() throws {
        let stateDirectory = NavdProcess.temporaryStateDirectory()
        defer { TemporaryDirectory.remove(stateDirectory) }
        let session = try GtkViewSession(stateDirectory: stateDirectory)
        try session.startView()
        try session.navctlSucceeding("push", "orange")  // while the window starts: it subscribes, then reads the state
        try session.waitForRender("orange at revision 2") { $0.revision == 2 && $0.visible == "Orange" }
        let orange = try session.screenshot("01-orange")

        try session.navctlSucceeding("push", "yellow")
        var render = try session.waitForRender("yellow pushed") { $0.revision == 3 }
        #expect(render.stacks.map(\.routes) == [["red", "orange", "yellow"]] && render.visible == "Yellow")
        #expect(render.tab == "rainbow" && render.back != nil)
        #expect(render.backButton == BackButton(tooltip: "Back to Orange (Escape)", sensitive: true), "navd's BackTarget: orange")
        #expect(render.events == ["next", "root", "end", "show-modal"])
        let yellow = try session.screenshot("02-yellow")
        #expect(yellow != orange)

        // The header's back button: navd pops (GetState), then the window follows.
        try session.click(render.back)
        #expect(try session.waitForState("yellow popped") { $0.revision == 4 }.path.map(\.route) == ["red", "orange"])
        render = try session.waitForRender("yellow popped") { $0.revision == 4 }
        #expect(render.stacks.map(\.routes) == [["red", "orange"]] && render.visible == "Orange")
        #expect(try session.screenshot("02-popped") == orange, "the same state looks the same")

        try session.navctlSucceeding("present", "modal", "--sheet")
        render = try session.waitForRender("the sheet") { $0.revision == 5 }
        #expect(render.stacks.map(\.style) == ["root", "sheet"] && render.visible == "Modal")
        #expect(render.events == ["close", "root", "end", "show-modal"])
        // The sheet holds only its root: Back would close it, leaving orange on top.
        #expect(render.backButton == BackButton(tooltip: "Back to Orange (Escape)", sensitive: true))
        let sheet = try session.screenshot("03-sheet")
        #expect(sheet != orange)

        // The sheet's Close (Dismiss); then, on a cover, the route's own `close` event (its handler dismisses).
        try session.click(render.close)
        #expect(try session.waitForState("without the sheet") { $0.revision == 6 }.path.map(\.route) == ["red", "orange"])
        render = try session.waitForRender("the sheet dismissed") { $0.revision == 6 }
        #expect(render.stacks.count == 1 && render.visible == "Orange" && render.close == nil)
        try session.navctlSucceeding("present", "modal", "--cover")
        render = try session.waitForRender("the cover") { $0.revision == 7 }
        #expect(render.stacks.map(\.style) == ["root", "cover"] && render.visible == "Modal")
        #expect(try session.screenshot("03-cover") != sheet)
        try session.click(render.place(of: "close"))
        #expect(try session.waitForState("without the cover") { $0.revision == 8 }.path.map(\.route) == ["red", "orange"])
        try session.waitForRender("the cover dismissed") { $0.revision == 8 && $0.stacks.count == 1 }

        try session.navctlSucceeding("tab", "news")
        render = try session.waitForRender("the news tab") { $0.revision == 9 }
        #expect(render.tab == "news" && render.visible == "News" && render.events == ["call"])
        #expect(render.backButton?.sensitive == false, "the news tab is at its root, whatever rainbow holds")
        let news = try session.screenshot("04-news")
        #expect(news != orange)
        // A click on the switcher's Rainbow is SelectTab, and nothing more: with navd stopped the window
        // still shows news; once navd has selected rainbow, the window does too.
        let navd = try #require(session.navd.child)
        navd.signal(SIGSTOP)
        try session.click(render.place(ofTab: "rainbow"))
        let unanswered = try session.screenshot("04-news-clicked")
        navd.signal(SIGCONT)
        #expect(unanswered == news, "the window switched tabs before navd did")
        #expect(try session.waitForState("rainbow selected") { $0.revision == 10 }.tab == "rainbow")
        render = try session.waitForRender("back on rainbow") { $0.revision == 10 }
        #expect(render.tab == "rainbow" && render.visible == "Orange")

        // A click on `next`, then the key for it (1): each changes navd's state, read with GetState.
        try session.click(render.place(of: "next"))
        #expect(try session.waitForState("yellow after the click") { $0.revision == 11 }.path.map(\.route) == ["red", "orange", "yellow"])
        render = try session.waitForRender("yellow after the click") { $0.revision == 11 && $0.visible == "Yellow" }
        try session.press("1", in: render.place(of: "next"))
        #expect(try session.waitForState("green after the key") { $0.revision == 12 }.path.last?.route == "green")
        try session.waitForRender("green after the key") { $0.revision == 12 && $0.visible == "Green" }
        try session.navctlSucceeding("pop")
        render = try session.waitForRender("green popped") { $0.revision == 13 }
        #expect(render.stacks.map(\.routes) == [["red", "orange", "yellow"]] && render.visible == "Yellow")
        #expect(render.backButton == BackButton(tooltip: "Back to Orange (Escape)", sensitive: true))

        // Back (Escape) on the root is refused: navd's own message as a toast, the page kept.
        try session.navctlSucceeding("root")
        render = try session.waitForRender("red") { $0.revision == 14 && $0.visible == "Red" }
        #expect(render.backButton == BackButton(tooltip: "Back (Escape)", sensitive: false), "BackTarget is empty at the root")
        let red = try session.screenshot("05-red")
        let refused = try session.navctl("back")
        let message = try #require(refused.stderr.split(separator: "\n").first?.dropFirst("navctl: ".count)
            .split(separator: " [org.navd").first.map(String.init))
        try session.press("Escape", in: render.place(of: "next"))
        let toast = try session.waitForRender("a toast") { $0.toast != nil }
        #expect(toast.toast == message)
        let kept = try session.state()
        #expect(kept.revision == 14 && kept.path.map(\.route) == ["red"])
        #expect(try session.screenshot("06-refused") != red, "the toast is on screen")

        // navd killed: the not-running page; navd back (its state restored): that state again.
        session.navd.kill9()
        try session.waitForRender("the gone page") { $0.isGone }
        let gone = try session.screenshot("07-gone")
        #expect(gone != red)
        try session.navd.start()
        render = try session.waitForRender("the state again") { $0.revision == 14 }
        #expect(render.stacks.map(\.routes) == [["red"]] && render.visible == "Red" && render.tab == "rainbow")
        #expect(try session.screenshot("08-back") != gone)
        #expect(session.view?.stop() == 0, "the view ends cleanly on SIGTERM: \(session.view?.stderrText ?? "")")
    }

    @Test(.enabled(if: GtkView.available))
    func aLoginFlowOfOurOwnRouteFileAsAnApp() throws {
        let mail = try String(contentsOfFile: GtkView.repository + "/Examples/gtk-view/mail.yaml", encoding: .utf8)
        let session = try GtkViewSession(apps: ["mail": mail])
        try session.startView(["--app", "mail"])
        var render = try session.waitForRender("the inbox") { $0.revision == 1 }
        #expect(render.tab == "inbox" && render.visible == "Inbox" && render.events == ["open", "compose"])

        // `open` reads $event.id (an int): a word is refused in the window, and nothing is sent.
        try session.click(render.place(of: "open", field: "id"))
        try session.xdotool(["type", "seven"])
        try session.click(render.place(of: "open"))
        #expect(try session.waitForRender("the refusal") { $0.toast != nil }.toast == "'open' needs id as int, not 'seven'")
        #expect(try session.state(app: "mail").revision == 1)

        // A number: reading a message needs signed-in, so navd opens the sign-in flow as a sheet.
        try session.click(render.place(of: "open", field: "id"))
        try session.xdotool(["key", "ctrl+a", "type", "7"])
        try session.click(render.place(of: "open"))
        let redirected = try session.waitForState(app: "mail", "the sign-in sheet") { $0.revision == 2 }
        #expect(redirected.path.map(\.route) == ["inbox", "sign-in"] && redirected.path.last?.presentation == .sheet)
        render = try session.waitForRender("the sign-in sheet") { $0.revision == 2 }
        #expect(render.stacks.map(\.style) == ["root", "sheet"] && render.visible == "Sign in")
        #expect(render.json["flows"] == .array([.string("flow sign-in")]))
        #expect(render.events == ["submit", "forgot-password", "cancel"])
        #expect(render.backButton == BackButton(tooltip: "Back to Inbox (Escape)", sensitive: true))
        let signIn = try session.screenshot("11-sign-in")

        // `submit` with the user typed: the flow finishes and the kept request opens message 7.
        try session.click(render.place(of: "submit", field: "user"))
        try session.xdotool(["type", "ada"])
        try session.click(render.place(of: "submit"))
        let resumed = try session.waitForState(app: "mail", "message 7") { $0.revision == 3 }
        #expect(resumed.path.map(\.route) == ["inbox", "message"])
        #expect(resumed.path.last?.params == ["id": .int(7)])
        render = try session.waitForRender("message 7") { $0.revision == 3 }
        #expect(render.stacks.map(\.routes) == [["inbox", "message"]] && render.visible == "Message")
        #expect(try session.screenshot("12-message") != signIn)

        // The app's route file removed, navd reloaded: the not-running page; back again: the app again.
        let file = session.navd.appsDirectory + "/mail.yaml"
        try FileManager.default.removeItem(atPath: file)
        try session.navctlSucceeding("reload")
        try session.waitForRender("the app gone") { $0.isGone }
        try mail.write(toFile: file, atomically: true, encoding: .utf8)
        try session.navctlSucceeding("reload")
        render = try session.waitForRender("the app back") { !$0.isGone && $0.revision != nil }
        #expect(render.tab == "inbox" && render.visible != nil)
    }
}
