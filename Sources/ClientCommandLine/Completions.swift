import ArgumentParser
import NavdClient

/// Shell completion whose candidates are asked of the navigator the words typed so far pick
/// (`--system`, `--address`, `--app`; else the session bus's default navigator): completing
/// `navctl --app shop push <TAB>` offers shop's routes. Nothing is offered when navd cannot be reached.
/// Each candidate is `terminalSafe`: the shell prints them.
public func navigatorCompletion(
    _ names: @escaping @Sendable (NavigatorClient) throws -> [String]
) -> CompletionKind {
    .custom { words, _, _ in
        guard let client = try? ConnectionOptions.typed(in: words).client() else { return [] }
        return ((try? names(client)) ?? []).map(\.terminalSafe)
    }
}

extension ConnectionOptions {
    /// The connection flags among `words` (a command line as typed, perhaps unfinished), with a
    /// short timeout; a flag given twice takes its last value, an invalid app name is left out.
    public static func typed(in words: [String]) -> ConnectionOptions {
        var system = false
        var address: String?
        var app: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            let next = index + 1 < words.count ? words[index + 1] : nil
            switch word {
            case "--system":
                system = true
            case "--address", "--app":
                if let next {
                    if word == "--address" { address = next } else { app = next }
                    index += 1
                }
            default:
                if word.hasPrefix("--address=") { address = String(word.dropFirst("--address=".count)) }
                if word.hasPrefix("--app=") { app = String(word.dropFirst("--app=".count)) }
            }
            index += 1
        }
        return ConnectionOptions(
            system: system && address == nil, address: address,
            app: app.flatMap { Navigator.isValidAppName($0) ? $0 : nil }, timeout: 2)
    }
}

/// Shell completion for app names, asked of the navd on the bus the typed words pick (navctl and
/// navwatch both offer it).
public let appCompletion = navigatorCompletion { try $0.send(.apps).map(\.name) }
