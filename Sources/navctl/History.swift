#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ClientCommandLine
import NavdClient

/// `navctl history [-n N]`: History.
struct History: NavctlCommand {
    /// Left to ArgumentParser by the fast path; the name is the command's.
    static let form = CommandForm.parserOnly("history")
    static let abstract = "List the newest changes, newest first."

    @OptionGroup var options: GlobalOptions
    @Option(name: .customShort("n"), help: ArgumentHelp("How many changes.", valueName: "count")) var count: UInt32 = 10

    func run() throws {
        let session = try Session(options)
        let items = try session.client.send(.history(limit: count))
        session.say(json: {
            .array(items.map { item in
                .object([("revision", .number(item.revision)), ("cause", .string(item.cause)), ("time", .int(item.time))])
            })
        }, else: { items.map { "\($0.revision)  \($0.cause.padding(to: 10))  \(localTime($0.time))" } })
    }
}

/// A time in microseconds since the epoch as local `YYYY-MM-DD HH:MM:SS.mmm`; a time before the epoch
/// counts back from it (the milliseconds are never negative), and one the C library cannot place in the
/// calendar is printed as its microseconds.
func localTime(_ microseconds: Int64) -> String {
    // Floor division: -1 µs is 23:59:59.999 of the day before, not 00:00:00 minus a millisecond.
    let (quotient, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
    let wholeSeconds = remainder < 0 ? quotient - 1 : quotient
    let fractionMicroseconds = remainder < 0 ? remainder + 1_000_000 : remainder
    var seconds = time_t(wholeSeconds)
    var parts = tm()
    var buffer = [CChar](repeating: 0, count: 64)
    guard localtime_r(&seconds, &parts) != nil else { return "\(microseconds) µs" }
    let length = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
    let fraction = String(fractionMicroseconds / 1000)
    let prefix = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return prefix + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
