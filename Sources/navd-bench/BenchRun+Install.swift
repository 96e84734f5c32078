import Foundation

extension BenchRun {
    /// The installed size of navd, navctl and navwatch: scripts/install.sh run into a staging
    /// directory (DESTDIR) from the binaries measured, so the figure is what `make install` ships.
    func measureInstalledSize() throws {
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
            installed += size
            built += fileMebibytes(binaries.directory + "/" + name)
            parts.append("\(name) \(format2(size))")
        }
        var figure = Figure("install.size", "navd + navctl + navwatch as installed (stripped)", value: installed, unit: "MiB")
        figure.note = "\(parts.joined(separator: ", ")) MiB; as built (with symbols) \(format2(built)) MiB"
        figures.append(figure)
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

/// The size of the file at `path` in MiB (0 when it is missing).
func fileMebibytes(_ path: String) -> Double {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0
    return size / 1_048_576
}
