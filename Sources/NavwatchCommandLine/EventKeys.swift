import ClientCommandLine
import NavdClient

/// The keys the terminal view offers for the events the top screen can send: one lower-case letter or digit per
/// event, picked deterministically from the event's name, never `q` (which quits).
struct EventKeys {
    /// The keys in the order of the events (GetEvents' order: inner scopes first).
    let bindings: [(key: Character, event: String)]

    /// Assigns keys to `events` in order. Each event takes the first free candidate of: the first letter of
    /// each of its words, last word first (`show-modal`: `m`, then `s`); then its other letters in order; then
    /// the digits 1–9 and 0; then any free letter. An event left without a key (more than 35) is not offered.
    init(_ events: [String]) {
        var taken: Set<Character> = ["q"]
        var bindings: [(key: Character, event: String)] = []
        for event in events {
            let letters = event.lowercased()
            let words = letters.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            var candidates: [Character] = words.reversed().compactMap(\.first)
            candidates += letters.filter { $0.isLetter || $0.isNumber }
            candidates += Array("1234567890abcdefghijklmnopqrstuvwxyz")
            guard let key = candidates.first(where: { $0.isASCII && !taken.contains($0) }) else { continue }
            taken.insert(key)
            bindings.append((key, event))
        }
        self.bindings = bindings
    }

    /// The event bound to the key `byte`, if any.
    func event(for byte: UInt8) -> String? {
        let key = Character(Unicode.Scalar(byte))
        return bindings.first { $0.key == key }?.event
    }

    /// The keys line: `n next · r root · e end · m show-modal` (`  ` between entries without Unicode).
    func line(unicode: Bool) -> String {
        bindings.map { "\($0.key) \($0.event)" }.joined(separator: unicode ? " · " : "  ")
    }

}
