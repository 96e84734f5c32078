import ClientCommandLine
import DBus
import JSON
import NavdClient
import NavdService

/// The JSON reader alone (`JSONValue.parse`). An accepted document holds no number JSON cannot write (a
/// non-finite double is written `null`), and its text (`encoded()`) reads back as the same value and is written
/// the same again.
public func fuzzJSON(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    guard let value = try? JSONValue.parse(String(decoding: data, as: UTF8.self)) else { return }
    try require(value.allNumbersFinite, "an accepted document holds a number beyond a double's range")
    let text = value.encoded()
    let again: JSONValue
    do { again = try JSONValue.parse(text) } catch { throw PropertyViolation("a value's own text does not parse: \(error)") }
    try require(again == value, "a value's text parses as another value")
    try require(again.encoded() == text, "a value's text is written differently the second time")
}

/// The param types `fuzzBatch` converts to: a route of each type, and facts (Tests/Fixtures/routes/small.yaml's).
private let batchTypes = BatchParamTypes(
    routes: ["detail": ["id": "int", "zoom": "double", "pinned": "bool"], "list": ["filter": "string", "page": "int"]],
    facts: ["signed-in": "bool", "count": "int", "name": "string", "ratio": "double"])

/// A batch file (`navctl apply`): JSON to a `Batch` of ops, read without and with param types, then sent as
/// `Apply`'s arguments through the daemon's decoding (`CallDecoding.decode`). Every op navctl accepts, navd
/// reads.
public func fuzzBatch(_ data: UnsafeRawBufferPointer) throws(PropertyViolation) {
    guard let json = try? JSONValue.parse(String(decoding: data, as: UTF8.self)) else { return }
    for types in [BatchParamTypes(), batchTypes] {
        guard let batch = try? Batch(json: json, types: types) else { continue }
        let request = NavigatorRequest.apply(batch.operations, expectedRevision: batch.expectedRevision ?? 0)
        do { try CallDecoding.decode(.apply, request.arguments) } catch {
            throw PropertyViolation("a batch navctl accepts is refused by navd's decoding: \(error)")
        }
    }
}

extension JSONValue {
    /// Whether every double in the value, at any depth, is finite.
    var allNumbersFinite: Bool {
        switch self {
        case .double(let number): number.isFinite
        case .array(let items): items.allSatisfy(\.allNumbersFinite)
        case .object(let members): members.allSatisfy(\.1.allNumbersFinite)
        case .null, .bool, .int, .unsigned, .string: true
        }
    }
}
