import Foundation

/// The lean targets, in MiB: what navd ships and what it keeps resident when idle.
enum LeanTargets {
    /// navd as installed (stripped).
    static let navdMebibytes = 20.0
    /// What bin/ holds once installed: navd, one executable, with navctl and navwatch links to it (issue 33's target).
    static let binariesMebibytes = 20.0
    /// Idle navd's private (anonymous) resident pages.
    static let idlePrivateMebibytes = 2.0
    /// Idle navd's resident pages, private + file-backed.
    static let idleResidentMebibytes = 8.0
}

extension BenchRun {
    /// What `make install` ships, measured from scripts/install.sh run into a staging directory
    /// (DESTDIR) with the binaries measured: navd stripped (`size.navd`, against its target; navctl and
    /// navwatch are links to it), bin/ as a whole (`install.size`, against its target), every installed file
    /// (`install.total`: man pages, completions, D-Bus and systemd files too) and, given `deb`,
    /// the package's Installed-Size as dpkg counts it (`install.deb`).
    /// Given `baseline` (another build's bin folder, `--lean-baseline`), its bin/ as installed is `before.install.size`.
    func measureInstalledSize(deb: String?, baseline: String? = nil) throws {
        guard let script = repositoryFile("scripts/install.sh") else {
            throw BenchError("scripts/install.sh not found (run navd-bench from the repository)")
        }
        if let baseline {
            // The baseline's own install.sh did what this one does for its three binaries: copy and strip each.
            let stage = workDirectory + "/install-stage-before"
            mkdir(stage, 0o755)
            var bytes = 0, names: [String] = []
            for name in ["navd", "navctl", "navwatch"] where !names.contains(name) {
                let path = baseline + "/" + name
                if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil { continue }
                _ = try timedRun("/bin/cp", [path, stage + "/" + name])
                _ = try timedRun("/usr/bin/strip", ["--remove-section=.comment", "--remove-section=.note", "--strip-unneeded", stage + "/" + name])
                bytes += fileBytes(stage + "/" + name)
                names.append("\(name) \(fileBytes(stage + "/" + name))")
            }
            var figure = Figure("before.install.size", "the --lean-baseline build's binaries, stripped as install.sh strips", value: Double(bytes) / 1_048_576, unit: "MiB")
            figure.note = "\(bytes) bytes: \(names.joined(separator: ", "))"
            figures.append(figure)
        }
        let stage = workDirectory + "/install-stage"
        let (_, status) = try timedRun("/bin/bash", [script, "install", binaries.directory, "/usr/local", stage])
        guard status == 0 else { throw BenchError("scripts/install.sh exited \(status)") }
        let navdBytes = fileBytes(stage + "/usr/local/bin/navd"), builtBytes = fileBytes(binaries.directory + "/navd")
        var navd = Figure("size.navd", "navd as installed (stripped; navctl and navwatch are links to it)", value: Double(navdBytes) / 1_048_576, unit: "MiB")
        navd.note = "\(navdBytes) bytes; as built (with symbols) \(builtBytes) bytes"
        navd.check(atMost: LeanTargets.navdMebibytes, unit: "MiB")
        figures.append(navd)
        // Every regular file in bin/: a link costs no file's bytes (and a second binary would be counted).
        let shipped = regularFiles(under: stage + "/usr/local/bin")
        let installed = shipped.reduce(0) { $0 + $1.mebibytes }
        var figure = Figure("install.size", "the binaries as installed (stripped): every file in bin/", value: installed, unit: "MiB")
        figure.note = "\(shipped.count) file(s), \(shipped.reduce(0) { $0 + fileBytes($1.path) }) bytes; navctl, navwatch: links to navd"
        figure.check(atMost: LeanTargets.binariesMebibytes, unit: "MiB")
        figures.append(figure)

        let files = regularFiles(under: stage)
        var total = Figure("install.total", "every file make install installs", value: files.reduce(0) { $0 + $1.mebibytes }, unit: "MiB")
        total.note = "\(files.count) files: the binaries, and \(format2(files.filter { !$0.path.contains("/bin/") }.reduce(0) { $0 + $1.mebibytes } * 1024)) KiB of man pages, completions, D-Bus and systemd files"
        figures.append(total)

        if let deb {
            let result = try captureRun("/usr/bin/dpkg-deb", ["-f", deb, "Installed-Size"], directory: workDirectory)
            guard result.status == 0, let kibibytes = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError("dpkg-deb -f \(deb) Installed-Size: \(result.output)")
            }
            var figure = Figure("install.deb", "the package's Installed-Size (dpkg: every file, rounded up to KiB)", value: kibibytes / 1024, unit: "MiB")
            figure.note = "\((deb as NSString).lastPathComponent): \(Int(kibibytes)) KiB"
            figures.append(figure)
        }
    }

    /// `relative` in the current directory's repository, else in the one this benchmark was built from.
    func repositoryFile(_ relative: String) -> String? {
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        return [FileManager.default.currentDirectoryPath, sourceRoot]
            .map { $0 + "/" + relative }
            .first { FileManager.default.fileExists(atPath: $0) }
    }
}

extension Figure {
    /// Sets an upper bound on the value (a size or a memory figure) and whether it was met.
    mutating func check(atMost bound: Double, unit: String) {
        target = "<= \(formatNumber(bound)) \(unit)"
        met = p50 <= bound
    }
}

/// The size of the file at `path` in MiB (0 when it is missing; a link's own size, not its target's).
func fileMebibytes(_ path: String) -> Double {
    Double(fileBytes(path)) / 1_048_576
}

/// The size of the file at `path` in bytes (0 when it is missing; a link's own size, not its target's).
func fileBytes(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
}

/// Every regular file under `directory`, with its size in MiB.
func regularFiles(under directory: String) -> [(path: String, mebibytes: Double)] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    var files: [(String, Double)] = []
    while let relative = walker.nextObject() as? String {
        let path = directory + "/" + relative
        if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeRegular { files.append((path, fileMebibytes(path))) }
    }
    return files
}
