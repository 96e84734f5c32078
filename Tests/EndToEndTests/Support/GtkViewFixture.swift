import Foundation
import Glibc
import NavdClient
import TestSupport
import Testing
import TestFixtures

/// What the GTK view's tests need, and whether this machine has it.
enum GtkView {
    static let repository = Fixture.repository
    /// The view, and the Python it is written for (Debian's, where python3-gi is).
    static let script = repository + "/Examples/gtk-view/gtk_view.py"
    static let python = "/usr/bin/python3"
    /// Where each test's screenshots are written (kept, for a look and for the README's picture).
    static let screenshots = repository + "/.build/gtk-view"

    /// Why the window cannot be tested here, or nil when it can.
    static let missingReason: String? = {
        if let reason = EndToEnd.navdMissingReason { return reason }
        for tool in [VirtualDisplay.executable, "/usr/bin/xdotool", "/usr/bin/scrot"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is not installed (scripts/deps.sh installs xvfb, xdotool and scrot)"
        }
        let probe = "import gi; gi.require_version('Gtk', '4.0'); gi.require_version('Adw', '1'); from gi.repository import Adw"
        guard let result = try? ChildProcess.run(python, ["-c", probe]), result.status == 0 else {
            return "PyGObject with GTK 4 and libadwaita is not installed (scripts/deps.sh installs python3-gi, gir1.2-gtk-4.0, gir1.2-adw-1)"
        }
        return nil
    }()

    /// True when the window can be tested; prints the reason once when it cannot.
    static var available: Bool {
        if let missingReason { print("skipping the GTK view: \(missingReason)") }
        return missingReason == nil
    }
}

/// One line of the view's `--log-renders` output: what it drew, read back from its widgets.
struct Render {
    let json: JSONValue
    var revision: Int64? { json.integer("revision") }
    var tab: String? { json.string("tab") }
    var isGone: Bool { json["gone"] == .bool(true) }
    var toast: String? { json.string("toast") }
    /// Each stack on screen, the tab's first, then each layer: its style, its pages' routes, the visible title.
    var stacks: [(style: String, routes: [String], visible: String)] {
        guard case .array(let stacks)? = json["stacks"] else { return [] }
        return stacks.map { stack in
            guard case .array(let routes)? = stack["routes"] else { return (stack.string("style") ?? "", [], "") }
            let names = routes.compactMap { if case .string(let route) = $0 { route } else { nil } }
            return (stack.string("style") ?? "", names, stack.string("visible") ?? "")
        }
    }
    /// The title of the page on top.
    var visible: String? { stacks.last?.visible }
    /// Where the top screen's button for `event` (or its param field `event.param`) is.
    func place(of event: String, field: String? = nil) -> (window: Int64, x: Int64, y: Int64)? {
        if let field { return Self.place(json["fields"]?["\(event).\(field)"]) }
        guard case .array(let events)? = json["events"] else { return nil }
        return Self.place(events.first { $0.string("event") == event })
    }
    /// Where the view switcher's button for `tab` is.
    func place(ofTab tab: String) -> (window: Int64, x: Int64, y: Int64)? { Self.place(json["tabs"]?[tab]) }
    /// Where the back button of the top stack is.
    var back: (window: Int64, x: Int64, y: Int64)? { Self.place(json["back"]) }
    /// The top stack's back button as drawn: its tooltip, and whether it can be clicked (navd's `BackTarget`).
    var backButton: BackButton? {
        guard let tooltip = json["back"]?.string("tooltip"), let sensitive = json["back"]?["sensitive"] else { return nil }
        return BackButton(tooltip: tooltip, sensitive: sensitive == .bool(true))
    }
    /// Where the top layer's Close button is (nil without a layer).
    var close: (window: Int64, x: Int64, y: Int64)? { Self.place(json["close"]) }

    private static func place(_ value: JSONValue?) -> (window: Int64, x: Int64, y: Int64)? {
        guard let value, let window = value.integer("window"), let x = value.integer("x"), let y = value.integer("y") else { return nil }
        return (window, x, y)
    }
    var events: [String] {
        guard case .array(let events)? = json["events"] else { return [] }
        return events.compactMap { $0.string("event") }
    }
}

/// The top stack's back button as the view drew it.
struct BackButton: Equatable {
    var tooltip: String
    var sensitive: Bool
}

/// A private bus, a navd, an X server and the GTK view on them; every process stopped by its pid.
final class GtkViewSession: OnPrivateBus {
    let bus: PrivateBus
    let navd: NavdProcess
    let display: VirtualDisplay
    let home = TemporaryDirectory.make("navd-gtk-view-home")
    private(set) var view: ChildProcess?
    private var linesRead = 0

    init(stateDirectory: String? = nil, apps: [String: String] = [:]) throws {
        bus = try PrivateBus()
        let appsDirectory = home + "/apps"
        try FileManager.default.createDirectory(atPath: appsDirectory, withIntermediateDirectories: true)
        for (name, text) in apps { try text.write(toFile: "\(appsDirectory)/\(name).yaml", atomically: true, encoding: .utf8) }
        navd = try NavdProcess.started(bus: bus, stateDirectory: stateDirectory, appsDirectory: appsDirectory)
        display = try VirtualDisplay()
        // No animations and no blinking cursor: a screenshot of a state is the same however late it is taken.
        try FileManager.default.createDirectory(atPath: home + "/gtk-4.0", withIntermediateDirectories: true)
        try "[Settings]\ngtk-enable-animations=false\ngtk-cursor-blink=false\n"
            .write(toFile: home + "/gtk-4.0/settings.ini", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: GtkView.screenshots, withIntermediateDirectories: true)
    }

    deinit {
        view?.stop()
        navd.stop()
        bus.stop()
        TemporaryDirectory.remove(home)
    }

    /// Starts the view with `--address` and `--log-renders` plus `arguments`, without waiting for it.
    func startView(_ arguments: [String] = []) throws {
        let environment = display.environment.merging(bus.environment) { $1 }.merging([
            "XDG_CONFIG_HOME": home, "GSK_RENDERER": "cairo", "GTK_A11Y": "none", "PYTHONDONTWRITEBYTECODE": "1",
        ]) { $1 }
        view = try ChildProcess(launching: GtkView.python, arguments: [GtkView.script, "--address", bus.address, "--log-renders"]
            + arguments, environment: environment)
    }

    /// Waits up to 20 s for a line after the last one returned that `matches`; throws with the view's output.
    @discardableResult
    func waitForRender(_ what: String, _ matches: (Render) -> Bool) throws -> Render {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let lines = (view?.stdoutText ?? "").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            while linesRead < lines.count {
                linesRead += 1
                if let json = try? JSONValue.parse(String(lines[linesRead - 1])), matches(Render(json: json)) {
                    return Render(json: json)
                }
            }
            if Date() >= deadline || view?.isRunning != true {
                throw HarnessError("the view did not show \(what); stdout: \(view?.stdoutText ?? ""), stderr: \(view?.stderrText ?? "")")
            }
            usleep(10_000)
        }
    }

    /// navd's state, read with GetState (not from the window); of `app` when given.
    func state(app: String? = nil) throws -> VisibleState {
        try NavigatorClient(bus: .address(bus.address), app: app, timeoutMilliseconds: 5_000).send(.getState)
    }

    /// Waits up to 20 s until navd's state passes `check`, and returns it.
    func waitForState(app: String? = nil, _ what: String, _ check: (VisibleState) -> Bool) throws -> VisibleState {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let state = try self.state(app: app)
            if check(state) { return state }
            if Date() >= deadline { throw HarnessError("navd's state did not become \(what): \(state.path.map(\.route))") }
            usleep(20_000)
        }
    }

    /// Runs xdotool on the display: clicks, keys, typing.
    func xdotool(_ arguments: [String]) throws {
        let result = try ChildProcess.run("/usr/bin/xdotool", arguments, environment: display.environment, timeout: 20)
        if result.status != 0 { throw HarnessError("xdotool \(arguments) failed: \(result.stderr)") }
    }

    /// Clicks the centre of a widget the view placed (window id and point from its render line).
    func click(_ place: (window: Int64, x: Int64, y: Int64)?) throws {
        let place = try #require(place, "the widget is not in the render line")
        // Then away (off the window), so that no hover highlight is left in a screenshot.
        try xdotool(["mousemove", "--window", "\(place.window)", "\(place.x)", "\(place.y)", "click", "1", "mousemove", "\(display.width - 1)", "\(display.height - 1)"])
    }

    /// Gives the keyboard focus to the window of the widget at `place` (there is no window manager to do
    /// it), then presses `key` (an X keysym name).
    func press(_ key: String, in place: (window: Int64, x: Int64, y: Int64)?) throws {
        let place = try #require(place, "the window is not in the render line")
        try xdotool(["windowfocus", "--sync", "\(place.window)", "key", key])
    }

    /// A PNG of the main window's area once two shots in a row agree (a repaint may still be on its way),
    /// written to `.build/gtk-view/NAME.png`.
    func screenshot(_ name: String) throws -> Data {
        let path = "\(GtkView.screenshots)/\(name).png"
        var last: Data?
        for _ in 0..<50 {
            let result = try ChildProcess.run("/usr/bin/scrot", ["-o", "-a", "0,0,720,480", path], environment: display.environment)
            if result.status != 0 { throw HarnessError("scrot failed: \(result.stderr)") }
            let shot = try Data(contentsOf: URL(fileURLWithPath: path))
            if shot == last { return shot }
            last = shot
            usleep(50_000)
        }
        throw HarnessError("the screen did not settle for screenshot \(name)")
    }
}
