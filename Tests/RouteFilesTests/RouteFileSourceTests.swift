import Foundation
import Testing
import RouteFiles

/// `RouteFileSource.read`: only regular files of at most 1 MiB, refused before anything can block.
@Suite(.timeLimit(.minutes(1)))
struct RouteFileSourceTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "navd-source-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func problem(_ path: String) -> String? {
        do {
            _ = try RouteFileSource.read(path)
            return nil
        } catch {
            #expect(error.file == path)
            return error.problem
        }
    }

    @Test func readsARegularFileAndWhatASymlinkPointsTo() throws {
        let path = folder + "/routes.yaml"
        try "root: home\nroutes: { home: {} }\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try RouteFileSource.read(path) == Array("root: home\nroutes: { home: {} }\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.yaml", withDestinationPath: path)
        #expect(try RouteFileSource.read(folder + "/link.yaml").count == 32)
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test func refusesAFIFOWithoutBlocking() throws {
        let path = folder + "/fifo.yaml"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(problem(path)?.contains("a FIFO, not a regular file") == true)
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test func refusesAFolderNamedLikeARouteFile() throws {
        let path = folder + "/x.yaml"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(problem(path)?.contains("a folder, not a regular file") == true)
        #expect(problem("/dev/null")?.contains("a device") == true)
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test func refusesMoreThanOneMebibyte() throws {
        let path = folder + "/big.yaml"
        let exactly = [UInt8](repeating: UInt8(ascii: "#"), count: RouteFileSource.maximumBytes)
        FileManager.default.createFile(atPath: path, contents: Data(exactly))
        #expect(try RouteFileSource.read(path).count == RouteFileSource.maximumBytes)
        FileManager.default.createFile(atPath: path, contents: Data(exactly + [10]))
        #expect(problem(path)?.contains("larger than 1024 KiB") == true)
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test func aMissingFileSaysSo() {
        #expect(problem(folder + "/gone.yaml")?.contains("No such file or directory") == true)
    }
}
