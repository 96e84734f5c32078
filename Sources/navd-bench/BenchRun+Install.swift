import Foundation

/// The lean targets, in MiB: what navd ships and what it keeps resident when idle.
enum LeanTargets {
    /// navd as installed (stripped).
    static let navdMebibytes = 20.0
    /// navd + navctl + navwatch as installed.
    static let binariesMebibytes = 50.0
    /// Idle navd's resident pages, private + file-backed.
    static let idleResidentMebibytes = 8.0
}

extension BenchRun {
    /// What `make install` ships, measured from scripts/install.sh run into a staging directory
    /// (DESTDIR) with the binaries measured: each binary stripped (`size.NAME`, navd against its
    /// target), the three together (`install.size`, against its target), every installed file
    /// (`install.total`: man pages, completions, D-Bus and systemd files too) and, given `deb`,
    /// the package's Installed-Size as dpkg counts it (`install.deb`).
    func measureInstalledSize(deb: String?) throws {
        guard let script = repositoryFile("scripts/install.sh") else {
            throw BenchError("scripts/install.sh not found (run navd-bench from the repository)")
        }
        let stage = workDirectory + "/install-stage"
        let (_, status) = try timedRun("/bin/bash", [script, "install", binaries.directory, "/usr/local", stage])
        guard status == 0 else { throw BenchError("scripts/install.sh exited \(status)") }
        var installed = 0.0, built = 0.0
        var parts: [String] = []
        for name in ["navd", "navctl", "navwatch"] {
            let size = fileMebibytes(stage + "/usr/local/bin/" + name)
            let asBuilt = fileMebibytes(binaries.directory + "/" + name)
            installed += size
            built += asBuilt
            parts.append("\(name) \(format2(size))")
            var figure = Figure("size.\(name)", "\(name) as installed (stripped)", value: size, unit: "MiB")
            figure.note = "as built (with symbols) \(format2(asBuilt)) MiB"
            if name == "navd" { figure.check(atMost: LeanTargets.navdMebibytes, unit: "MiB") }
            figures.append(figure)
        }
        var figure = Figure("install.size", "navd + navctl + navwatch as installed (stripped)", value: installed, unit: "MiB")
        figure.note = "\(parts.joined(separator: ", ")) MiB; as built (with symbols) \(format2(built)) MiB"
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

/// The size of the file at `path` in MiB (0 when it is missing).
func fileMebibytes(_ path: String) -> Double {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
    return size / 1_048_576
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
