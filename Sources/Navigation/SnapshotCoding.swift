import Foundation

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

/// The JSON settings of version-1 snapshots and journal records (still read; written only by tests).
enum SnapshotCoding {
    /// The fields every document starts with.
    struct Header: Decodable {
        var format: String
        var version: Int
    }

    static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return Array(try encoder.encode(value))
        } catch {
            // Our documents hold only strings, integers, bools and (non-conforming-safe) doubles.
            fatalError("encoding a navd document failed: \(error)")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(SnapshotError) -> Value {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw .corrupt(describe(error))
        } catch {
            throw .corrupt("\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the document" : path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context): return "\(place(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "\(place(context.codingPath)): missing key '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
