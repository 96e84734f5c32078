/// The well-formedness half of `BusConfigCheck`: a byte reader of the XML 1.0 that a bus configuration uses.
struct XMLReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func problem(_ what: String) -> BusConfigCheck.Problem { BusConfigCheck.Problem(description: "\(what) (at byte \(offset))") }

    /// The prolog, one root element, then only whitespace and comments.
    mutating func document() throws(BusConfigCheck.Problem) -> BusConfigCheck.Element {
        try checkCharacters()
        if starts("<?xml") {
            guard let end = find("?>") else { throw problem("an unterminated XML declaration") }
            offset = end + 2
        }
        try misc()
        if starts("<!DOCTYPE") {
            guard let end = find(">") else { throw problem("an unterminated DOCTYPE") }
            offset = end + 1
        }
        try misc()
        let root = try element()
        try misc()
        guard offset == bytes.count else { throw problem("something after the root element") }
        return root
    }

    /// XML 1.0's characters only: no control character but tab, line feed and carriage return.
    func checkCharacters() throws(BusConfigCheck.Problem) {
        if let bad = bytes.firstIndex(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            throw BusConfigCheck.Problem(description: "control character \(bytes[bad]) (at byte \(bad))")
        }
        // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters either.
        for index in bytes.indices.dropLast(2) where bytes[index] == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE {
            throw BusConfigCheck.Problem(description: "a non-character (at byte \(index))")
        }
    }

    func starts(_ text: String) -> Bool { bytes[offset...].starts(with: text.utf8) }

    func find(_ text: String) -> Int? {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return nil }
        var index = offset
        while index + needle.count <= bytes.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// XML's white space: space, tab, line feed, carriage return (a switch, not an array a byte is looked up in).
    static func isSpace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    mutating func skipSpace() {
        while offset < bytes.count, Self.isSpace(bytes[offset]) { offset += 1 }
    }

    /// Whitespace and comments.
    mutating func misc() throws(BusConfigCheck.Problem) {
        while true {
            skipSpace()
            guard starts("<!--") else { return }
            offset += 4
            guard let end = find("--") else { throw problem("an unterminated comment") }
            guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else { throw problem("'--' inside a comment") }
            offset = end + 3
        }
    }

    mutating func name() throws(BusConfigCheck.Problem) -> String {
        let start = offset
        while offset < bytes.count, isNameByte(bytes[offset], first: offset == start) { offset += 1 }
        guard offset > start else { throw problem("a name expected") }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: false
        }
    }

    /// An element and everything in it.
    mutating func element() throws(BusConfigCheck.Problem) -> BusConfigCheck.Element {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "<") else { throw problem("an element expected") }
        offset += 1
        var element = BusConfigCheck.Element(name: try name(), attributes: [], children: [])
        while true {
            let hadSpace = offset < bytes.count && Self.isSpace(bytes[offset])
            skipSpace()
            if starts("/>") { offset += 2; return element }
            if starts(">") { offset += 1; break }
            guard hadSpace else { throw problem("no space before an attribute of <\(element.name)>") }
            let attribute = try name()
            guard !element.attributes.contains(where: { $0.0 == attribute }) else { throw problem("attribute '\(attribute)' twice") }
            skipSpace()
            guard starts("=") else { throw problem("'=' expected after '\(attribute)'") }
            offset += 1
            skipSpace()
            element.attributes.append((attribute, try attributeValue()))
        }
        while true {
            try misc()
            if starts("</") {
                offset += 2
                let closing = try name()
                guard closing == element.name else { throw problem("</\(closing)> closes <\(element.name)>") }
                skipSpace()
                guard starts(">") else { throw problem("'>' expected") }
                offset += 1
                return element
            }
            guard offset < bytes.count else { throw problem("<\(element.name)> is not closed") }
            guard bytes[offset] == UInt8(ascii: "<") else { throw problem("text inside <\(element.name)>") }
            element.children.append(try self.element())
        }
    }

    /// The five entities XML predefines, and the byte each stands for.
    static let entities: [(String, UInt8)] = [("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&apos;", 0x27)]

    /// A quoted attribute value with its entities replaced; `<` and a lone `&` are refused.
    mutating func attributeValue() throws(BusConfigCheck.Problem) -> String {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'") else {
            throw problem("a quoted value expected")
        }
        let quote = bytes[offset]
        offset += 1
        var value: [UInt8] = []
        while true {
            guard offset < bytes.count else { throw problem("an unterminated value") }
            let byte = bytes[offset]
            if byte == quote { offset += 1; return String(decoding: value, as: UTF8.self) }
            if byte == UInt8(ascii: "<") { throw problem("'<' inside a value") }
            if byte == UInt8(ascii: "&") {
                guard let (entity, replacement) = Self.entities.first(where: { starts($0.0) }) else {
                    throw problem("an '&' that starts no entity")
                }
                value.append(replacement)
                offset += entity.utf8.count
                continue
            }
            // XML hands a tab, line feed or carriage return in a value on as a space.
            value.append(Self.isSpace(byte) ? 0x20 : byte)
            offset += 1
        }
    }
}
