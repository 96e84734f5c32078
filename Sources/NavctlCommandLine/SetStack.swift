import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl set-stack ROUTE[;key=value…] …`: SetStack.
struct SetStack: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("set-stack")
    static let abstract = "Replace the whole top stack, root included."
    static let discussion = "Each screen is ROUTE or ROUTE;key=value;key=value (values may be percent-encoded)."

    @OptionGroup var options: GlobalOptions
    @Argument(help: ArgumentHelp("The screens, bottom first.", valueName: "route[;key=value…]"),
              completion: routeCompletion)
    var screens: [String] = []

    func run() throws {
        let session = try Session(options)
        let routesWithParams = Set(screens.filter { $0.contains(";") }.map { String($0.prefix { $0 != ";" }) })
        let types = try session.declaredTypes(for: routesWithParams)
        var specs: [ScreenSpec] = []
        for word in screens {
            do {
                specs.append(try ScreenSpec(word: word, declaredTypes: { types[$0] ?? [:] }))
            } catch {
                throw ValidationError(error.description)
            }
        }
        try session.change(.op(.setStack), .setStack(specs))
    }
}
