import DBus
import Foundation
import Testing

/// Every thread that builds a message passes through DBus's signature cache. Four threads append
/// 2,000 bodies of different signatures in all (about four times the cache's capacity, so it fills
/// and starts again while the others read it), each with a variant that holds the same structure
/// (the cache's second set). Each body must read back as written. Under `make check-long` ThreadSanitizer
/// watches the cache here: it once reported the cache's insert (under `Synchronization.Mutex`,
/// whose contended hand-over it cannot see); under `PThreadMutex` it sees the lock, so any report
/// here is a real race.
@Suite struct SignatureCacheConcurrencyTests {
    /// The basic types a structure's fields cycle through.
    static let fields: [@Sendable (Int) -> DBusValue] = [
        { .byte(UInt8($0 % 256)) }, { .int16(Int16($0 % 1000)) }, { .uint16(UInt16($0 % 1000)) },
        { .int32(Int32($0)) }, { .uint32(UInt32($0)) }, { .int64(Int64($0)) },
    ]

    /// A structure whose field types spell `number` in base 6: a different signature per number.
    static func structure(_ number: Int) -> DBusValue {
        var digits: [DBusValue] = []
        var rest = number
        repeat {
            digits.append(fields[rest % fields.count](number))
            rest /= fields.count
        } while rest > 0
        return .structure(digits + [.string("n\(number)")])
    }

    @Test func fourThreadsAppendingTwoThousandSignaturesEachReadBackWhatTheyWrote() throws {
        let threads = 4
        let perThread = 500
        let failures = PThreadMutex<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for index in 0..<perThread {
                    let number = thread * perThread + index
                    let body = [Self.structure(number), .variant(Self.structure(number))]
                    do {
                        let message = try Message.signal(path: "/org/navd/Test", interface: "org.navd.Test1", member: "S")
                        try message.append(body)
                        if try message.body() != body { failures.withLock { $0.append("\(number): read back differently") } }
                    } catch {
                        failures.withLock { $0.append("\(number): \(error)") }
                    }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let found = failures.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) failures: \(found.prefix(5))")
    }
}
