#if canImport(Glibc)
import Glibc
#endif

/// The system's user database (`/etc/passwd`, `/etc/group` or whatever NSS serves): the lookups
/// `access:` needs, kept here because they are I/O and the model is not.
public enum UserDatabase {
    /// The uid of user `name`, or nil when there is none.
    public static func uid(named name: String) -> UInt32? {
        withBuffer { (buffer: UnsafeMutablePointer<CChar>, size: Int) -> (Int32, UInt32?) in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let status = getpwnam_r(name, &entry, buffer, size, &result)
            return (status, result == nil ? nil : entry.pw_uid)
        } ?? nil
    }

    /// The gid of group `name`, or nil when there is none.
    public static func gid(named name: String) -> UInt32? {
        withBuffer { (buffer: UnsafeMutablePointer<CChar>, size: Int) -> (Int32, UInt32?) in
            var entry = group()
            var result: UnsafeMutablePointer<group>?
            let status = getgrnam_r(name, &entry, buffer, size, &result)
            return (status, result == nil ? nil : entry.gr_gid)
        } ?? nil
    }

    /// User `uid`'s name and primary group, or nil when the database has no such user.
    public static func user(_ uid: UInt32) -> (name: String, gid: UInt32)? {
        withBuffer { (buffer: UnsafeMutablePointer<CChar>, size: Int) -> (Int32, (name: String, gid: UInt32)?) in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(uid, &entry, buffer, size, &result)
            guard result != nil, let name = entry.pw_name else { return (status, nil) }
            return (status, (String(cString: name), entry.pw_gid))
        } ?? nil
    }

    /// Group `gid`'s name, or nil when the database has no such group.
    public static func groupName(_ gid: UInt32) -> String? {
        withBuffer { (buffer: UnsafeMutablePointer<CChar>, size: Int) -> (Int32, String?) in
            var entry = group()
            var result: UnsafeMutablePointer<group>?
            let status = getgrgid_r(gid, &entry, buffer, size, &result)
            guard result != nil, let name = entry.gr_name else { return (status, nil) }
            return (status, String(cString: name))
        } ?? nil
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
