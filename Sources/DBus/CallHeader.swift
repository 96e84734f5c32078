import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The header fields of a received call that dispatch reads, each read from libdbus (and made
/// a Swift string) once.
public struct CallHeader {
    /// The object path.
    public let path: String?
    /// The interface, when the call names one.
    public let interface: String?
    /// The method's name.
    public let member: String?

    /// The fields of `message`.
    public init(_ message: Message) {
        path = message.path
        interface = message.interface
        member = message.member
    }

    /// The fields of `message`, each the string `names` holds when it is one of the last few read: a loop that
    /// reads call after call to the same object makes no new strings for them.
    init(_ message: Message, names: inout RecentNames) {
        path = names.string(dbus_message_get_path(message.raw))
        interface = names.string(dbus_message_get_interface(message.raw))
        member = names.string(dbus_message_get_member(message.raw))
    }
}

/// The last few header names read (paths, interfaces, members), kept to be handed out again: making a `String` of a
/// name longer than 15 bytes allocates it, and freeing it later costs as much again, for every call. Names are
/// compared byte for byte, so a name read is always the message's own.
struct RecentNames {
    private var names: [String] = []
    /// How many names are kept.
    private let capacity: Int
    /// Where the next name not held goes (the oldest is replaced).
    private var next = 0

    /// An empty set keeping at most `capacity` names.
    init(capacity: Int = 8) {
        self.capacity = capacity
        names.reserveCapacity(capacity)
    }

    /// The string of the C string `pointer` (nil: nil).
    mutating func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let length = strlen(pointer)
        for name in names where name.utf8.count == length {
            let same = name.utf8.withContiguousStorageIfAvailable { $0.baseAddress.map { memcmp($0, pointer, length) == 0 } ?? (length == 0) }
            if same == true { return name }
        }
        let name = String(cString: pointer)
        if names.count < capacity {
            names.append(name)
        } else {
            names[next] = name
            next = (next + 1) % capacity
        }
        return name
    }
}
