/// A key `navwatch --inspect` reads.
enum InspectKey: Equatable {
    case left
    case right
    case enter
    /// Any other byte typed, or the last byte of any other escape sequence.
    case other(UInt8)
}

/// Turns the bytes of a raw terminal into keys: `ESC [ D` and `ESC O D` (the two cursor-key modes) are ←,
/// `… C` →; Enter is CR or LF. An escape sequence may arrive split over several reads.
struct InspectKeyReader {
    private enum Stage { case ground, escape, sequence }
    private var stage = Stage.ground

    /// The key `byte` completes, if any.
    mutating func key(_ byte: UInt8) -> InspectKey? {
        switch stage {
        case .ground:
            switch byte {
            case 0x1B: stage = .escape; return nil
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"): return .enter
            default: return .other(byte)
            }
        case .escape:
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") {
                stage = .sequence
                return nil
            }
            stage = .ground
            return .other(byte)
        case .sequence:
            // Parameters and intermediates (0x20–0x3F) continue a sequence; a final byte ends it.
            if (0x20...0x3F).contains(byte) { return nil }
            stage = .ground
            switch byte {
            case UInt8(ascii: "D"): return .left
            case UInt8(ascii: "C"): return .right
            default: return .other(byte)
            }
        }
    }
}
