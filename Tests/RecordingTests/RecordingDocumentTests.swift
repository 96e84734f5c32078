import DBus
import JSON
import Navigation
import NavigatorProtocol
@testable import Recording
import Testing

@Suite("Recording document: encode, decode, refusals")
struct RecordingDocumentTests {
    static func sample() throws -> Recording {
        let push = try RecordedCall.json(method: "Push", arguments: [
            .string("news-item"),
            (["id": .int(42), "title": .string("hi \"you\""), "score": .double(2.0), "seen": .bool(true)] as [String: ParamValue]).dbusValue,
        ])
        let change1 = RecordingChange(
            revision: 5, cause: "push", time: 1_700_000_000_000_000, method: "Push", arguments: push,
            caller: RecordingCaller(command: "navctl", uid: 1000), tab: "rainbow",
            path: [Entry(id: "#1", route: "red", presentation: .root),
                   Entry(id: "#7", route: "news-item", presentation: .push, params: ["id": .int(42), "score": .double(2.0)])],
            nextId: 7)
        let change2 = RecordingChange(
            revision: 7, cause: "reconcile", time: 1_700_000_000_000_500, method: "", arguments: nil, caller: nil,
            tab: "rainbow", path: [Entry(id: "#1", route: "red", presentation: .root)], nextId: 8,
            routes: .file(path: "/tmp/r.yaml", text: "routes:\n  red: {}\n"))
        return Recording(
            navd: "0.2.0", app: "", routes: .demo, start: RecordingStart(revision: 4, snapshot: Array(0...255) + [1, 2]),
            changes: [change1, change2], redacted: false)
    }

    @Test("encode then decode gives back the same recording, keys in the documented order", .timeLimit(.minutes(1)))
    func roundTrip() throws {
        let recording = try Self.sample()
        let text = recording.encoded()
        #expect(text.hasPrefix(#"{"navd-recording":1,"navd":"0.2.0","app":"","routes":{"source":"demo"},"start":{"revision":4,"state":""#))
        #expect(text.hasSuffix("\"redacted\":false}\n"))
        #expect(text.contains(#""next-id":7"#))
        #expect(text.contains(#""caller":{"command":"navctl","uid":1000}"#))
        let back = try Recording.decode(text)
        #expect(back == recording)
        #expect(back.encoded() == text)
    }

    @Test("an empty recording and a redacted one round-trip", .timeLimit(.minutes(1)))
    func emptyAndRedacted() throws {
        let recording = Recording(navd: "x", app: "mail", routes: .demo, start: RecordingStart(revision: 1, snapshot: []), changes: [], redacted: true)
        #expect(try Recording.decode(recording.encoded()) == recording)
    }

    static func refusal(_ text: String) -> String? {
        do {
            _ = try Recording.decode(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("bad JSON is refused as not JSON", .timeLimit(.minutes(1)))
    func badJSON() {
        #expect(Self.refusal("{\"navd-recording\": 1,, }")?.hasPrefix("not JSON:") == true)
        #expect(Self.refusal("[1, 2]")?.contains("a JSON object") == true)
    }

    @Test("an unknown version is refused, naming it", .timeLimit(.minutes(1)))
    func unknownVersion() throws {
        let text = try Self.sample().encoded().replacingFirst(#""navd-recording":1"#, with: #""navd-recording":2"#)
        #expect(Self.refusal(text) == "unknown navd-recording version 2; this navd reads version 1")
        #expect(Self.refusal(#"{"navd": "0.2"}"#) == "not a recording: no \"navd-recording\" key")
    }

    @Test("a truncated file is refused as ending early, at every cut", .timeLimit(.minutes(1)))
    func truncated() throws {
        let text = try Self.sample().encoded()
        let bytes = Array(text.utf8)
        for cut in stride(from: 1, to: bytes.count - 2, by: 7) {
            let message = Self.refusal(String(decoding: bytes[0..<cut], as: UTF8.self))
            let prefix = String(decoding: bytes[0..<cut], as: UTF8.self)
            #expect(message?.hasPrefix("the recording ends early") == true, "cut at \(cut) (\(prefix.suffix(20))): \(message ?? "accepted")")
        }
    }

    @Test("missing, ill-typed, unknown and doubled keys are refused, naming the key and the change", .timeLimit(.minutes(1)))
    func badKeys() throws {
        let text = try Self.sample().encoded()
        #expect(Self.refusal(text.replacingFirst(#""app":"","#, with: "")) == "the recording: missing \"app\"")
        #expect(Self.refusal(text.replacingFirst(#""app":"""#, with: #""app":3"#)) == "the recording: \"app\" must be a string, not a number")
        #expect(Self.refusal(text.replacingFirst(#""app":"""#, with: #""app":"","extra":1"#)) == "the recording: unknown key \"extra\"")
        #expect(Self.refusal(text.replacingFirst(#""app":"""#, with: #""app":"","app":"""#)) == "the recording: \"app\" is given twice")
        #expect(Self.refusal(text.replacingFirst(#""next-id":7"#, with: #""next-id":-7"#))
            == "change 0 (revision 5): \"next-id\" must be a whole number ≥ 0, not a number")
        #expect(Self.refusal(text.replacingFirst(#","tab":"rainbow""#, with: ""))
            == "change 0 (revision 5): missing \"tab\"")
        #expect(Self.refusal(text.replacingFirst(#""state":""#, with: #""state":"!"#)) == "\"state\" of \"start\" must be base64 text")
        #expect(Self.refusal(text.replacingFirst(#""source":"demo""#, with: #""source":"web""#))
            == "\"routes\": source must be \"demo\" or \"file\", not \"web\"")
        #expect(Self.refusal(text.replacingFirst(#""method":"Push""#, with: #""method":"Jump""#))
            == "change 0 (revision 5): 'Jump' is not a method of org.navd.Navigator1")
        #expect(Self.refusal(text.replacingFirst(#""route":"news-item""#, with: #""route":5"#))
            == "change 0 (revision 5): \"route\" of Push must be a string, not a number")
        #expect(Self.refusal(text.replacingFirst(#""presentation""#, with: #""presentation""#).replacingFirst(#""push",{"#, with: #""slide",{"#))
            == "entry 1 of the path of change 0 (revision 5): unknown presentation 'slide'")
    }
}

extension String {
    /// The text with the first occurrence of `target` replaced (the text as it is when there is none).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let text = Array(utf8), pattern = Array(target.utf8)
        guard !pattern.isEmpty, text.count >= pattern.count else { return self }
        for start in 0...(text.count - pattern.count) where Array(text[start..<start + pattern.count]) == pattern {
            return String(decoding: text[..<start], as: UTF8.self) + replacement
                + String(decoding: text[(start + pattern.count)...], as: UTF8.self)
        }
        return self
    }
}
