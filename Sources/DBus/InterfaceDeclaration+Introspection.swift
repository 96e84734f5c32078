extension InterfaceDeclaration {
    /// This interface as an `<interface>` element of introspection XML, each line indented by
    /// `indent` spaces (nested elements by two more). Documentation becomes XML comments.
    public func introspectionXML(indent: Int = 2) -> String {
        let pad = String(repeating: " ", count: indent)
        let inner = pad + "  "
        var lines: [String] = []
        if let documentation { lines.append(pad + XML.comment(documentation)) }
        lines.append("\(pad)<interface name=\"\(XML.escape(name))\">")
        for method in methods {
            if let documentation = method.documentation { lines.append(inner + XML.comment(documentation)) }
            let children =
                method.inArguments.map { XML.argument($0, direction: "in") }
                + method.outArguments.map { XML.argument($0, direction: "out") }
                + method.annotations.keys.sorted().map { XML.annotation($0, method.annotations[$0]!) }
            lines += XML.element("method", name: method.name, children: children, indent: inner)
        }
        for signal in signals {
            if let documentation = signal.documentation { lines.append(inner + XML.comment(documentation)) }
            let children = signal.arguments.map { XML.argument($0, direction: nil) }
            lines += XML.element("signal", name: signal.name, children: children, indent: inner)
        }
        for property in properties {
            if let documentation = property.documentation { lines.append(inner + XML.comment(documentation)) }
            let access = property.access == .read ? "read" : "readwrite"
            let opening = "<property name=\"\(XML.escape(property.name))\" type=\"\(XML.escape(property.signature.rawValue))\" access=\"\(access)\""
            if property.emitsChangedSignal {
                lines.append(inner + opening + "/>")
            } else {
                lines.append(inner + opening + ">")
                lines.append(inner + "  " + XML.annotation("org.freedesktop.DBus.Property.EmitsChangedSignal", "false"))
                lines.append(inner + "</property>")
            }
        }
        lines.append("\(pad)</interface>")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Small helpers for writing XML (introspection, and navd's printed bus policy).
public enum XML {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// Escapes text for an attribute value or element content. It reads Unicode scalars, as an XML parser
    /// does, not Swift's characters: a combining mark after `&` makes one character of the two, which
    /// compares unequal to `"&"` and once went out unescaped (found by the bus-policy fuzz target).
    public static func escape(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&apos;".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A comment; `--` is not allowed inside one, so it is broken up.
    static func comment(_ text: String) -> String {
        var body = text.replacingAll("--", with: "- -")
        if body.hasSuffix("-") { body += " " }
        return "<!-- \(body) -->"
    }

    static func argument(_ argument: ArgumentDeclaration, direction: String?) -> String {
        var text = "<arg name=\"\(escape(argument.name))\" type=\"\(escape(argument.signature.rawValue))\""
        if let direction { text += " direction=\"\(direction)\"" }
        return text + "/>"
    }

    static func annotation(_ name: String, _ value: String) -> String {
        "<annotation name=\"\(escape(name))\" value=\"\(escape(value))\"/>"
    }

    static func element(_ tag: String, name: String, children: [String], indent: String) -> [String] {
        if children.isEmpty { return ["\(indent)<\(tag) name=\"\(escape(name))\"/>"] }
        return ["\(indent)<\(tag) name=\"\(escape(name))\">"] + children.map { indent + "  " + $0 } + ["\(indent)</\(tag)>"]
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation in this module).
    func replacingAll(_ target: String, with replacement: String) -> String {
        var parts: [Substring] = []
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts.joined(separator: replacement)
    }
}
