#if canImport(Glibc)
import Glibc
#endif

/// The names in `folder`, without `.` and `..`; none when it cannot be read (a missing apps
/// folder serves no apps). Used for the apps folder and for the apps' state folders.
func folderEntries(_ folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
