#if canImport(Glibc)
import Glibc
#endif

/// The one place that makes navd's state folders and says what is in them: every folder navd
/// creates for state is 0700 and every file navd keeps in one is 0600, whatever the umask; a
/// folder or file found looser is tightened, and the caller is told so it can log it.
enum StateDirectory {
    /// The files navd keeps in a state folder: the database, the files SQLite puts beside it,
    /// and the state lock. Nothing else in the folder is touched.
    static let ownedFiles = [
        StateStore.fileName, StateStore.fileName + "-wal", StateStore.fileName + "-shm",
        StateStore.fileName + "-journal", StateLock.fileName,
    ]
    /// The folder of the apps' state folders inside the default navigator's.
    static let appsFolder = "apps"

    /// Creates `path` and its missing parents (each 0700), or checks that it is a folder; then
    /// tightens `path` to 0700 at most, the files navd keeps in it to 0600 at most, and the same
    /// in `apps/*` below it. Returns one sentence per thing it tightened.
    static func prepare(_ path: String) throws(StoreError) -> [String] {
        try create(path)
        var notices: [String] = []
        tighten(path, allowed: 0o700, &notices)
        tightenContents(of: path, &notices)
        let apps = path + "/" + appsFolder
        if isFolder(apps, followingLinks: false) {
            tighten(apps, allowed: 0o700, &notices)
            for name in folderEntries(apps) where isFolder(apps + "/" + name, followingLinks: false) {
                tighten(apps + "/" + name, allowed: 0o700, &notices)
                tightenContents(of: apps + "/" + name, &notices)
            }
        }
        return notices
    }

    /// Creates the empty file `path` with mode 0600 (exactly, whatever the umask) when it is
    /// missing, so that SQLite, which gives its log the database's mode, makes no looser file.
    static func createPrivateFile(_ path: String) throws(StoreError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }
            throw StoreError(.cannotOpen, "cannot create navd state file \(path): \(errorText()); "
                + "check the directory's permissions, or choose another state directory")
        }
        defer { close(fd) }
        _ = fchmod(fd, 0o600)
    }

    /// `mkdir -p` with mode 0700 for every folder it makes.
    private static func create(_ path: String) throws(StoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 {
                // mkdir's mode passes through the umask; the folder is private whatever it is.
                _ = chmod(prefix, 0o700)
            } else if errno != EEXIST {
                throw StoreError(.cannotOpen, "cannot create navd state directory \(path): \(errorText()) (at \(prefix)); "
                    + "create it yourself or choose another state directory")
            }
        }
        guard isFolder(path, followingLinks: true) else {
            throw StoreError(.cannotOpen, "navd state directory \(path) exists but is not a directory; "
                + "move it away or choose another state directory")
        }
    }

    /// Tightens the files navd keeps directly in `folder`.
    private static func tightenContents(of folder: String, _ notices: inout [String]) {
        for name in ownedFiles {
            var status = stat()
            // Not through a link: only files navd made are changed.
            guard lstat(folder + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            tighten(folder + "/" + name, allowed: 0o600, &notices)
        }
    }

    /// Clears the bits of `path`'s mode outside `allowed`, noting it when there were any.
    private static func tighten(_ path: String, allowed: mode_t, _ notices: inout [String]) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let mode = status.st_mode & 0o7777
        guard mode & ~allowed != 0 else { return }
        let tightened = mode & allowed
        let kind = allowed == 0o700 ? "state directory" : "state file"
        if chmod(path, tightened) == 0 {
            notices.append("the \(kind) \(path) was open to other users (mode \(octal(mode))); it is now \(octal(tightened))")
        } else {
            notices.append("the \(kind) \(path) is open to other users (mode \(octal(mode))) and could not be made "
                + "\(octal(tightened)): \(errorText()); fix its permissions")
        }
    }

    /// Whether `path` is a folder (a link to one counts only when `followingLinks`).
    private static func isFolder(_ path: String, followingLinks: Bool) -> Bool {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        return result == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// `0755`-style text for a mode.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The text of `errno`.
    static func errorText() -> String { String(cString: strerror(errno)) }
}
