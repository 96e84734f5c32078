#if canImport(Glibc)
import Glibc
#endif

/// A time in microseconds since the epoch as local `YYYY-MM-DD HH:MM:SS.mmm`; a time before the epoch
/// counts back from it (the milliseconds are never negative), and one the C library cannot place in the
/// calendar is printed as its microseconds.
public func localTime(_ microseconds: Int64) -> String {
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
