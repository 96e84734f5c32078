import Foundation
import TestFixtures
import Testing

/// The documentation holds together: every relative link and anchor in README.md, HACKING.md and docs/
/// resolves, every document under docs/ (with its anchor) that a comment in Sources/ or Tests/ cites
/// exists, and the README stays a page read in five minutes (at most 12,000 bytes, nothing dated).
@Suite("the documentation's links")
struct DocumentationLinkTests {
    static let repository = Fixture.repository

    static func read(_ relative: String) throws -> String {
        try String(contentsOfFile: repository + "/" + relative, encoding: .utf8)
    }

    /// README.md, HACKING.md and every Markdown file under docs/, as paths relative to the repository.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repository + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "HACKING.md"] + docs
    }

    /// The text outside fenced code blocks and inline code, where Markdown reads links.
    static func prose(_ markdown: String) -> String {
        var inFence = false, lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            if !inFence { lines.append(String(line)) }
        }
        return lines.joined(separator: "\n").replacingOccurrences(of: "`[^`\n]*`", with: "", options: .regularExpression)
    }

    /// The anchors GitHub gives the headings of `markdown`: lower case, punctuation dropped, spaces as
    /// hyphens, a repeated one numbered.
    static func anchors(_ markdown: String) -> Set<String> {
        var seen: [String: Int] = [:], result: Set<String> = []
        var inFence = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let slug = String(title.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
            }.map(Character.init)).replacingOccurrences(of: " ", with: "-")
            let count = seen[slug, default: 0]
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
            seen[slug] = count + 1
        }
        return result
    }

    /// `target`, relative to the folder of `document`, as a path relative to the repository.
    static func resolve(_ target: String, from document: String) -> String {
        var parts = document.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/").map(String.init) {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    /// What is wrong with the link `target` written in `document` (nil: it resolves).
    static func problem(_ target: String, in document: String) throws -> String? {
        let pieces = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let file = pieces[0].isEmpty ? document : resolve(pieces[0], from: document)
        guard FileManager.default.fileExists(atPath: repository + "/" + file) else { return "\(file) does not exist" }
        if pieces.count == 2, file.hasSuffix(".md"), !anchors(try read(file)).contains(pieces[1]) {
            return "\(file) has no heading with the anchor #\(pieces[1])"
        }
        return nil
    }

    @Test func everyRelativeLinkAndAnchorResolves() throws {
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var checked = 0
        for document in try Self.documents() {
            let text = Self.prose(try Self.read(document))
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(match.range(at: 1), in: text)!])
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                if let problem = try Self.problem(target, in: document) {
                    Issue.record("\(document): the link (\(target)) does not resolve: \(problem)")
                }
            }
        }
        print("documentation: \(checked) relative links checked in \(try Self.documents().count) files")
        #expect(checked >= 30)
    }

    @Test func everyDocumentACommentCitesExists() throws {
        let citation = try NSRegularExpression(pattern: #"docs/[A-Za-z0-9_-]+\.md(#[a-z0-9_-]+)?"#)
        var checked = 0
        for folder in ["Sources", "Tests"] {
            let files = FileManager.default.enumerator(atPath: Self.repository + "/" + folder)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") || file.hasSuffix(".md") else { continue }
                let text = try Self.read(folder + "/" + file)
                for match in citation.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let target = String(text[Range(match.range, in: text)!])
                    checked += 1
                    if let problem = try Self.problem(target, in: "README.md") {
                        Issue.record("\(folder)/\(file) cites \(target): \(problem)")
                    }
                }
            }
        }
        #expect(checked >= 10)
    }

    @Test func theReadmeIsShortAndUndated() throws {
        let readme = try Self.read("README.md")
        #expect(readme.utf8.count <= 12_000, "README.md is \(readme.utf8.count) bytes; the reference belongs in man/ and docs/")
        let date = readme.range(of: #"20[0-9]{2}-[0-9]{2}-[0-9]{2}"#, options: .regularExpression)
        #expect(date == nil, "README.md is dated: \(date.map { String(readme[$0]) } ?? "")")
    }
}
