#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ClientCommandLine
import NavdClient

/// navwatch's whole run, as `navwatch` (a link to navd, Sources/navd/main.swift) or `man-navwatch` starts it:
/// parse the flags, pick the renderer (or the --inspect timeline, InspectLoop.swift), follow navd until SIGINT,
/// SIGTERM, `q`, or the bus going away. `arguments` excludes the command's own name.
public func navwatchMain(_ arguments: [String]) -> Never {
    let options: Navwatch
    do {
        options = try Navwatch.parse(arguments)
    } catch {
        exit(ExitStatus.report(parserError: error, of: Navwatch.self))
    }

    if options.inspect, isatty(0) == 0 || isatty(1) == 0 {
        printError("navwatch: --inspect needs a terminal on standard input and output")
        exit(ExitStatus.usage)
    }

    let client: NavigatorClient
    do {
        client = try options.connection.client()
        try client.subscribe()
    } catch {
        printError("navwatch: \(error)")
        exit(ExitStatus.unreachable)
    }

    let stdoutIsTerminal = isatty(1) != 0
    func environment(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "" }
    let noColor = !environment("NO_COLOR").isEmpty
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].map(environment).first { !$0.isEmpty } ?? ""
    let unicode = locale.uppercased().contains("UTF-8") || locale.uppercased().contains("UTF8")
    if options.inspect {
        installSignalHandlers(waking: client.connection.waker)
        exit(InspectLoop(client: client, color: !noColor, unicode: unicode).run())
    }

    let renderer: Renderer
    if options.json {
        renderer = LineRenderer(style: .json, tree: options.tree, app: options.connection.app)
    } else if let template = options.format {
        renderer = LineRenderer(style: .template(template), tree: options.tree)
    } else if options.lines || options.once || !stdoutIsTerminal {
        renderer = LineRenderer(style: .lines, tree: options.tree)
    } else {
        renderer = TerminalRenderer(tree: options.tree, color: !noColor, unicode: unicode)
    }

    installSignalHandlers(waking: client.connection.waker)
    let loop = WatchLoop(client: client, renderer: renderer, readsKeyboard: renderer is TerminalRenderer)
    let navdAnswered = loop.start() && loop.showError == nil
    if options.once {
        renderer.finish()
        // navd answered no (such as UnknownObject for an app it does not serve, naming the apps): say so, exit 1.
        if case .remote = loop.lastError {
            printError("navwatch: \(loop.lastError!)")
            exit(ExitStatus.refused)
        }
        exit(navdAnswered ? ExitStatus.success : ExitStatus.unreachable)
    }
    exit(loop.run())
}
