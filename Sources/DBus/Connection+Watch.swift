import CDBus
import Glibc
import Synchronization

/// The socket's read watch that libdbus hands to a connection's watch functions: once `poll`
/// says the socket is readable, handling the watch reads it, where `dbus_connection_read_write`
/// would poll it again first (one system call more per message read).
final class ReadWatch: @unchecked Sendable {
    /// The `DBusWatch` pointer's bits, 0 when there is none.
    private let bits = Atomic<UInt>(0)

    var watch: OpaquePointer? { OpaquePointer(bitPattern: bits.load(ordering: .acquiring)) }

    fileprivate func set(_ watch: OpaquePointer?) {
        bits.store(UInt(bitPattern: watch.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0), ordering: .releasing)
    }

    fileprivate func clear(_ watch: OpaquePointer) {
        let expected = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(watch)))
        _ = bits.compareExchange(expected: expected, desired: 0, ordering: .acquiringAndReleasing)
    }

    fileprivate static func from(_ data: UnsafeMutableRawPointer?) -> ReadWatch? {
        data.map { Unmanaged<ReadWatch>.fromOpaque($0).takeUnretainedValue() }
    }
}

extension Connection {
    /// Makes `waitForMessages` read the socket by handling libdbus' read watch once `poll` says it
    /// is readable, instead of asking libdbus to poll it again: one `poll` fewer per message read.
    /// Only for a connection that one thread both waits on and closes (a service's loop): a
    /// `close()` on another thread during that read could free the watch being handled. Returns
    /// false (and reading stays as it was) when libdbus could not take the watch functions.
    @discardableResult
    public func readThroughWatch() -> Bool {
        let data = Unmanaged.passRetained(readWatch).toOpaque()
        let set = dbus_connection_set_watch_functions(
            raw,
            { watch, data in
                if let watch, dbus_watch_get_flags(watch) & DBUS_WATCH_READABLE.rawValue != 0 {
                    ReadWatch.from(data)?.set(watch)
                }
                return 1
            },
            { watch, data in
                if let watch { ReadWatch.from(data)?.clear(watch) }
            },
            { _, _ in },  // whether the watch is enabled is asked when it is used
            data,
            { data in
                if let data { Unmanaged<ReadWatch>.fromOpaque(data).release() }
            })
        if set == 0 {
            Unmanaged<ReadWatch>.fromOpaque(data).release()
            return false
        }
        return true
    }

    /// Reads what the socket holds through the read watch (see `readThroughWatch`), given the
    /// `poll` events seen on it; false when there is no enabled watch to read through. Called
    /// holding `reading`.
    func handleReadWatch(_ events: Int16) -> Bool {
        guard let watch = readWatch.watch, dbus_watch_get_enabled(watch) != 0 else { return false }
        var flags = DBUS_WATCH_READABLE.rawValue
        if events & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        if events & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        _ = dbus_watch_handle(watch, flags)
        return true
    }
}
