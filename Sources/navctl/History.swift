#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import NavdClient

/// `navctl history [-n N]`: History.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "List the newest changes, newest first.")

    @OptionGroup var options: GlobalOptions
    @Option(name: .customShort("n"), help: ArgumentHelp("How many changes.", valueName: "count")) var count: UInt32 = 10

    func run() throws {
        let session = try Session(options)
        let items = try session.client.history(limit: count)
        if options.json {
            session.say(json: .array(items.map { item in
                .object([("revision", .number(item.revision)), ("cause", .string(item.cause)),
                         ("time", .int(item.time))])
            }))
        } else {
            session.say(items.map { "\($0.revision)  \($0.cause.padding(to: 10))  \(localTime($0.time))" })
        }
    }
}

/// A time in microseconds since the epoch as local `YYYY-MM-DD HH:MM:SS.mmm`.
func localTime(_ microseconds: Int64) -> String {
    var seconds = time_t(microseconds / 1_000_000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
    let milliseconds = Int(microseconds % 1_000_000 / 1000)
    let fraction = String(milliseconds)
    let prefix = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return prefix + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
