import Foundation
import FoundationXML

/// An introspection document read with Foundation's XMLParser, for tests that check what a
/// service serves.
public struct IntrospectionDocument: Sendable {
    /// A method, signal or property of an interface.
    public struct Member: Equatable, Sendable {
        /// `method`, `signal` or `property`.
        public var kind: String
        /// The member's name.
        public var name: String
        /// The names of its `<arg>`s, in order (in and out together for methods).
        public var arguments: [String]
    }

    /// Members per interface name, in document order.
    public var members: [String: [Member]] = [:]
    /// The names of the child `<node>`s.
    public var children: [String] = []

    /// Parses `xml`; throws when it is not well-formed.
    public init(_ xml: String) throws {
        let delegate = Delegate()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw HarnessError("introspection XML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        members = delegate.members
        children = delegate.children
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var members: [String: [Member]] = [:]
        var children: [String] = []
        var interface: String?
        var depth = 0

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            switch element {
            case "node" where depth == 2: children.append(attributes["name"] ?? "")
            case "interface": interface = attributes["name"]
            case "method", "signal", "property":
                if let interface { members[interface, default: []].append(Member(kind: element, name: attributes["name"] ?? "", arguments: [])) }
            case "arg":
                if let interface, let name = attributes["name"], let last = members[interface]?.indices.last {
                    members[interface]![last].arguments.append(name)
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if element == "interface" { interface = nil }
        }
    }
}
