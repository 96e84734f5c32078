import PropertyBased
import Testing
import Navigation
import RouteFiles

/// Values written into a route file come back as they were: any text, escaped in a double-quoted
/// scalar, as a route's title; any whole number, spelled in any base YAML 1.1 allows (with `_`
/// between digits), as a fact's default.
@Suite(.timeLimit(.minutes(1)))
struct RouteFileRoundTripTests {
    /// A Unicode scalar for each code: printable ASCII most often, then anything but a surrogate.
    static func scalar(_ code: Int) -> Unicode.Scalar {
        let value = code % 3 == 0 ? 0x20 + code % 0x5F : code % 0x10_F800
        return Unicode.Scalar(value < 0xD800 ? value : value + 0x800) ?? "?"
    }

    /// `text` as a YAML double-quoted scalar: `\"`, `\\`, and `\UXXXXXXXX` for every scalar
    /// outside printable ASCII.
    static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case " "..."~": quoted.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
            }
        }
        return quoted + "\""
    }

    @Test func anyTitleComesBackAsWritten() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...0x7FFF_FFFF).array(of: 0...40)) { codes in
            let title = String(String.UnicodeScalarView(codes.map(Self.scalar)))
            let yaml = "root: home\nroutes:\n  home: { title: \(Self.doubleQuoted(title)) }\n"
            let graph = try? RouteGraph.load(yaml: yaml, file: "t.yaml")
            #expect(graph?.routes["home"]?.title == title, "\(yaml)")
        }
    }

    /// `value` in base `radix` (2, 8, 10 or 16) with its YAML prefix, `_` after every `group` digits.
    static func spelled(_ value: Int, radix: Int, group: Int) -> String {
        let digits = String(value.magnitude, radix: radix)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && group > 0 && index % group == 0 { grouped += "_" }
            grouped.append(digit)
        }
        let prefix = [2: "0b", 8: "0o", 10: "", 16: "0x"][radix]!
        return (value < 0 ? "-" : "") + prefix + grouped
    }

    @Test func anyWholeNumberComesBackInAnyBase() async {
        let input = Gen.int(in: (Int.min + 1)...Int.max).array(of: 3)
        await propertyCheck(count: 300, input: input) { picks in
            let value = [picks[0], picks[0] % 1000, picks[0] % 70][abs(picks[1] % 3)]
            let spelling = Self.spelled(value, radix: [2, 8, 10, 16][abs(picks[1] / 3 % 4)], group: abs(picks[2] % 5))
            let yaml = "root: home\nfacts:\n  n: { type: int, default: \(spelling) }\nroutes:\n  home: {}\n"
            let graph = try? RouteGraph.load(yaml: yaml, file: "n.yaml")
            #expect(graph?.facts["n"]?.defaultValue == .int(Int64(value)), "\(spelling)")
        }
    }
}
