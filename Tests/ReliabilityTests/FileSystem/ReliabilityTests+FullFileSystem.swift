import DBus
import Foundation
import TestSupport
import Testing

extension ReliabilityTests {
    /// navd's state directory on a 512 KiB tmpfs, mounted inside `unshare -m` (navd runs in
    /// that namespace; the bus socket in /tmp is reachable from both sides). Filled up, a Push
    /// is refused with StorageFailed, the log says so and the tree is unchanged; with space
    /// back, the next Push succeeds.
    @Test(.timeLimit(.minutes(3)))
    func fullFileSystemRefusesChangesThenRecovers() async throws {
        if let reason = Self.whyNoPrivateMounts() {
            print("reliability: full-file-system skipped: \(reason)")
            return
        }
        guard PrivateBus.isAvailable, NavdProcess.isBuilt else {
            print("reliability: full-file-system skipped: dbus-daemon or navd is missing")
            return
        }
        let mountPoint = Self.temporaryDirectory("tmpfs")
        defer { Self.remove(mountPoint) }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let quotedMountPoint = Spawn.shellQuoted(mountPoint)
        let navd = NavdProcess(bus: bus, stateDirectory: mountPoint) { navdCommand in
            ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount -t tmpfs -o size=512k tmpfs \(quotedMountPoint) && exec \(navdCommand)"]
        }
        defer { navd.stop() }
        try navd.start()

        let problems = try await onThread("full-file-system") { () throws -> [String] in
            var problems: [String] = []
            let connection = try Connection(.address(bus.address))
            defer { connection.close() }
            for route in ["orange", "yellow"] { try connection.navigator("Push", [.string(route), DBusValue.emptyParams]) }

            // Fill the tmpfs, from inside navd's mount namespace.
            let filler = Spawn.shellQuoted(mountPoint + "/filler")
            let fill = try ChildProcess.run(
                "/usr/bin/nsenter", ["-t", "\(navd.pid)", "-m", "/bin/sh", "-c", "cat /dev/zero > \(filler) 2>/dev/null; df -k \(quotedMountPoint) | tail -1"])
            if fill.status != 0 { problems.append("nsenter failed: \(fill.stderr)") }

            // Writes may still land in space SQLite already holds; the first that needs more
            // must be refused. Each attempt is compared with the state just before it.
            var acceptedWhileFull = 0
            var refusal: DBusError?
            var before = try connection.treeSnapshot()
            while acceptedWhileFull < 2_000 {
                do {
                    try connection.navigator("Push", [.string(acceptedWhileFull % 2 == 0 ? "green" : "teal"), DBusValue.emptyParams])
                    acceptedWhileFull += 1
                    before = try connection.treeSnapshot()
                } catch let error as DBusError {
                    refusal = error
                    break
                }
            }
            var after = try connection.treeSnapshot()
            if after != before { problems.append("the refused Push changed the state: \(before.summary) → \(after.summary)") }

            // Still full: a burst of pipelined changes, committed together, all refused.
            let recorder = try SignalRecorder(address: bus.address)
            let pipeline = Pipeline(connection: connection, window: 32)
            var burstReplies: [String: Int] = [:]
            let deliver: (Int, Message) throws -> Void = { _, reply in
                burstReplies[reply.kind == .error ? Contract.shortErrorName(reply.errorName ?? "?") : "success", default: 0] += 1
            }
            for index in 0..<40 {
                let message = index % 10 == 9
                    ? try Message.navigatorCall("Apply", [Contract.ops([Contract.op("push", [("route", .string("blue"))])]), .uint64(0)])
                    : try Message.navigatorCall("Push", [.string("purple"), DBusValue.emptyParams])
                try pipeline.send(message, deliver: deliver)
            }
            try pipeline.drain(deliver: deliver)
            usleep(200_000)
            recorder.stop()
            after = try connection.treeSnapshot()
            if burstReplies != ["StorageFailed": 40] { problems.append("a burst on the full disk was answered \(burstReplies), expected 40 StorageFailed") }
            if after != before { problems.append("the refused burst changed the state: \(before.summary) → \(after.summary)") }
            let announced = recorder.announcements.filter { $0.revision > before.revision }
            if !announced.isEmpty { problems.append("StackChanged was sent for refused changes: revisions \(announced.map(\.revision))") }
            let log = navd.stderr

            var figures = Figures("full-file-system")
            figures.add("filled", fill.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").joined(separator: "_"))
            figures.add("accepted-into-allocated-space", acceptedWhileFull)
            figures.add("refusal", refusal.map { Contract.shortErrorName($0.name) } ?? "none")
            figures.add("burst", burstReplies.map { "\($0.key):\($0.value)" }.sorted().joined(separator: ","))

            if refusal?.name != Contract.errorPrefix + "StorageFailed" {
                problems.append("expected StorageFailed, got \(refusal?.description ?? "no refusal in 2,000 pushes")")
            }
            let lower = log.lowercased()
            if !(lower.contains("navd: error:") && (lower.contains("full") || lower.contains("space") || lower.contains("storagefailed"))) {
                problems.append("navd's log does not say the change was refused for lack of space:\n\(log.suffix(1500))")
            }

            // Space comes back: the next Push succeeds and is there.
            let remove = try ChildProcess.run("/usr/bin/nsenter", ["-t", "\(navd.pid)", "-m", "/bin/rm", "-f", mountPoint + "/filler"])
            if remove.status != 0 { problems.append("could not remove the filler: \(remove.stderr)") }
            let pushed = try connection.navigator("Push", [.string("blue"), DBusValue.emptyParams])
            let recovered = try connection.treeSnapshot()
            figures.add("recovered-revision", recovered.revision)
            figures.print()
            if pushed.first?.uint64Value != before.revision + 1 || recovered.revision != before.revision + 1
                || !recovered.ids.contains(pushed.last?.stringValue ?? "?") {
                problems.append("the Push after space came back: \(pushed), state \(recovered.summary), expected revision \(before.revision + 1)")
            }
            if navd.stop() != 0 { problems.append("navd did not exit cleanly on SIGTERM after the full disk: \(navd.stderr.suffix(1000))") }
            return problems
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Why a tmpfs cannot be mounted in a private mount namespace here, or nil when it can.
    static func whyNoPrivateMounts() -> String? {
        guard getuid() == 0 else { return "not root (mounting a tmpfs inside unshare -m needs root)" }
        for tool in ["/usr/bin/unshare", "/usr/bin/nsenter"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (util-linux)"
        }
        let probe = temporaryDirectory("probe")
        defer { remove(probe) }
        guard let result = try? ChildProcess.run(
            "/usr/bin/unshare", ["-m", "/bin/sh", "-c", "mount -t tmpfs -o size=64k tmpfs \(Spawn.shellQuoted(probe))"], timeout: 10)
        else { return "unshare -m did not run" }
        return result.status == 0 ? nil : "cannot mount a tmpfs in a private mount namespace: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
}
