/// Why a snapshot or journal record could not be decoded.
public enum SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not a well-formed document of ours; the text says what is wrong.
    case corrupt(String)
    /// The document is ours but of a version this build does not read.
    case unsupportedVersion(found: Int, supported: Int)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .corrupt(let reason): "corrupt navd document: \(reason)"
        case .unsupportedVersion(let found, let supported):
            "navd document version \(found) is not supported; this build reads version \(supported)"
        }
    }
}

/// The JSON documents `{"format":"navd-state"|"navd-journal","version":1,…}` of builds before the binary
/// formats: recognised only so that they are refused by their version, like any other unsupported version.
enum JSONDocument {
    /// True when `bytes` is a JSON document of `format` (`navd-state` or `navd-journal`).
    static func isDocument(_ bytes: [UInt8], format: String) -> Bool {
        guard bytes.first == UInt8(ascii: "{") else { return false }
        let needle = Array("\"format\":\"\(format)\"".utf8)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The only version ever written as JSON.
    static let version = 1
}
