import Foundation
import Testing
@testable import QuoteStore
@testable import QuoteModels
@testable import QuoteText

@Suite struct JSONTests {
    static let awkward = [
        "He said \"hi\"", "back\\slash", "tab\there", "new\nline", "carriage\rreturn", "emoji 😀👍🏽",
        "bell\u{07} and escape\u{1B}[31m", "nul\u{0}byte", "delete\u{7F}", "line sep\u{2028}para\u{2029}",
        "행복은 내면에서", "</script>", "",
    ]

    @Test(arguments: awkward)
    func writtenStringsAreValidJSONThatReadsBackTheSame(text: String) throws {
        let json = JSONWriter.quoted(text)
        // Foundation's parser is the independent judge of validity.
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
        #expect(decoded == [text])
        #expect(try JSONParser.parse("[\(json)]") == .array([.string(text)]))
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 })
    }

    /// Each scalar's JSON, byte for byte, as the writer's rules say (it reads UTF-8 bytes, the
    /// rules are about scalars): the named escapes, \u00XX for the other C0 controls, DEL and C1,
    /// \uXXXX for U+2028/2029 and the bidi controls, every other scalar as it is — for every
    /// scalar of the first three planes' start, and some beyond, alone and between others.
    @Test func eachScalarIsWrittenAsTheRulesSay() {
        func expected(_ scalar: Unicode.Scalar) -> String {
            let named: [UInt32: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f"]
            if let escape = named[scalar.value] { return escape }
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                let hex = String(v, radix: 16)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            return String(Character(scalar))
        }
        let scalars = (UInt32(0)...0x3100).compactMap(Unicode.Scalar.init) + ["\u{FEFF}", "\u{FFFD}", "\u{1F600}", "\u{10FFFF}"]
        for scalar in scalars {
            let text = String(Character(scalar))
            #expect(JSONWriter.quoted(text) == "\"" + expected(scalar) + "\"", "U+\(String(scalar.value, radix: 16))")
            #expect(JSONWriter.quoted("a" + text + "é") == "\"a" + expected(scalar) + "é\"")
        }
        #expect(JSONWriter.quoted("") == "\"\"")
    }

    @Test func quoteJSONHasTheDocumentedKeys() throws {
        let quote = Quote(source: "custom.x", upstreamID: "7", text: "a \"b\"\n\tc", author: nil, category: "c", lang: "en")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(quote.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["source", "id", "text", "author", "category", "lang"])
        #expect(object["text"] as? String == "a \"b\"\n\tc")
        #expect(object["author"] is NSNull)
    }

    @Test func parserReadsNumbersEscapesAndSurrogates() throws {
        let value = try JSONParser.parse(#"{"a": [1, -2.5, 1e3, true, false, null], "b": "\u00e9\ud83d\ude00\n"}"#)
        #expect(value["a"] == .array([.integer(1), .double(-2.5), .double(1000), .bool(true), .bool(false), .null]))
        #expect(value["b"] == .string("é😀\n"))
    }

    @Test func invalidTextIsMarkedNotFatal() throws {
        var bytes = Array(#"[{"text": "ok"}, {"text": ""#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#""}, {"text": "\ud800"}]"#.utf8)
        let value = try JSONParser.parse(bytes)
        #expect(value.array?[0]["text"] == .string("ok"))
        #expect(value.array?[1]["text"] == .invalidText)
        #expect(value.array?[2]["text"] == .invalidText)
    }

    @Test(arguments: [
        ("[1, 2", 1, "unexpected end of input"),
        ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, "expected ':'"),
        ("<html><body>502</body></html>", 1, "HTML"),
        ("[1] 2", 1, "after the JSON value"),
        ("[\"a\tb\"]", 1, "control character"),
        ("", 1, "end of input"),
    ])
    func syntaxErrorsSayWhere(text: String, line: Int, reason: String) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        #expect(error?.line == line)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }
}

@Suite struct TerminalSanitizerTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}[31mred\u{1B}[0m", "red"),
        ("title\u{1B}]0;pwned\u{07}after", "titleafter"),
        ("link \u{1B}]8;;http://x\u{1B}\\text\u{1B}]8;;\u{1B}\\", "link text"),
        ("csi\u{9B}2Jcleared", "csicleared"),
        ("bell\u{07}back\u{08}cr\r", "bellbackcr"),
        ("keep\ttabs\nand lines", "keep\ttabs\nand lines"),
        ("행복 😀 é", "행복 😀 é"),
        ("bidi \u{202E}evil\u{202C} \u{2066}x\u{2069}", "bidi evil x"),
        ("dcs\u{1B}Pq#0;2;0;0;0\u{1B}\\done", "dcsdone"),
        ("lone escape at end\u{1B}", "lone escape at end"),
        ("charset \u{1B}(B done", "charset  done"),
    ])
    func cleansControlSequences(input: String, expected: String) {
        #expect(TerminalSanitizer.clean(input) == expected)
    }
}
