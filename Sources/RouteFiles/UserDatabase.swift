#if canImport(Glibc)
import Glibc
#endif

/// The system's user database (`/etc/passwd`, `/etc/group` or whatever NSS serves): the lookups
/// `access:` needs, kept here because they are I/O and the model is not.
public enum UserDatabase {
    /// The uid of user `name`, or nil when there is none.
    public static func uid(named name: String) -> UInt32? {
        lookUp(passwd(), { getpwnam_r(name, $0, $1, $2, $3) }) { $0.pw_uid }
    }

    /// The gid of group `name`, or nil when there is none.
    public static func gid(named name: String) -> UInt32? {
        lookUp(group(), { getgrnam_r(name, $0, $1, $2, $3) }) { $0.gr_gid }
    }

    /// User `uid`'s name and primary group, or nil when the database has no such user.
    public static func user(_ uid: UInt32) -> (name: String, gid: UInt32)? {
        lookUp(passwd(), { getpwuid_r(uid, $0, $1, $2, $3) }) { entry in
            entry.pw_name.map { (String(cString: $0), entry.pw_gid) }
        }
    }

    /// Group `gid`'s name, or nil when the database has no such group.
    public static func groupName(_ gid: UInt32) -> String? {
        lookUp(group(), { getgrgid_r(gid, $0, $1, $2, $3) }) { entry in entry.gr_name.map { String(cString: $0) } }
    }

    /// The groups user `uid` is in as the database says (`getgrouplist` of its name and primary
    /// group: what dbus-daemon's `<policy group=…>` goes by when the bus gives no groups); empty
    /// when the database has no such user.
    public static func groups(of uid: UInt32) -> [UInt32] {
        guard let user = user(uid) else { return [] }
        var count: Int32 = 64
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            var found = count
            if getgrouplist(user.name, user.gid, &groups, &found) >= 0 {
                return Array(groups.prefix(Int(found)))
            }
            guard found > count, found < 65_536 else { return [user.gid] }
            count = found
        }
    }

    /// Runs one `_r` lookup (`getpwnam_r` and the like: entry, buffer, its size, result) and reads what
    /// is asked from the entry it found; nil when there is none, or when `read` finds nothing in it.
    private static func lookUp<Entry, T>(
        _ empty: Entry,
        _ call: (UnsafeMutablePointer<Entry>, UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<UnsafeMutablePointer<Entry>?>) -> Int32,
        _ read: (Entry) -> T?
    ) -> T? {
        withBuffer { buffer, size -> (Int32, T?) in
            var entry = empty
            var result: UnsafeMutablePointer<Entry>?
            let status = call(&entry, buffer, size, &result)
            return (status, result == nil ? nil : read(entry))
        } ?? nil
    }

    /// Runs a `_r` lookup with a buffer, growing it while the lookup says ERANGE; nil when it fails otherwise.
    private static func withBuffer<T>(_ body: (UnsafeMutablePointer<CChar>, Int) -> (Int32, T)) -> T? {
        var size = 1024
        while size <= 1 << 20 {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            let (status, value) = body(buffer, size)
            if status == ERANGE {
                size *= 4
                continue
            }
            return value
        }
        return nil
    }
}
