import Foundation
@testable import QuoteModels
@testable import QuoteText
import Testing
import QuoteFormats
import TestSupport

/// Random bytes and mutated upstream payloads through the JSON parser and the custom-list
/// scanner: each parses or throws; none traps (deep nesting, huge numbers, broken UTF-8,
/// lone surrogates), none takes long. Whatever parses writes back as JSON that parses again.
@Suite struct JSONFuzzTests {
    static let cases = 20_000
    static let seeds: [[UInt8]] = [
        #"[{"id": 1, "category": "c", "text": "Stay hungry", "source": "Jobs"}, {"id": 2, "text": "행복은 \ud55c", "source": null}]"#,
        #"{"data": {"id": 12, "content": "행복", "author": "x"}, "message": "ok", "n": -0.5e-3, "big": 123456789012345678901234567890}"#,
        #"[{"market": "KRW-BTC", "korean_name": "비트코인", "english_name": "Bitcoin", "market_event": {"warning": false, "caution": {"A": true}}}]"#,
        #"{"quote_id": 9, "quote": "Say my name.", "character": "Walter White", "episode": 1e2, "esc": "\u0000\u202e\"\\\/\b\f\n\r\t"}"#,
    ].map { Array($0.utf8) }
    static let tokens: [[UInt8]] = ["[", "]", "{", "}", ",", ":", "\"", "\\", "\\u", "\\ud800", "e", "-", "0", ".", "1e999999",
                                    "9223372036854775808", "-9223372036854775809", "true", "null", "nul", "\u{FEFF}", " "].map { Array($0.utf8) }
        + [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x00]]

    @Test func randomAndMutatedDocumentsNeverTrap() {
        var random = SeededGenerator(state: 0x0DDB_A11)
        var parsed = 0
        for round in 0..<Self.cases {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &random)).flatMap { _ in Self.tokens.randomElement(using: &random)! }
            } else {
                bytes = Self.seeds.randomElement(using: &random)!
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0 where !bytes.isEmpty: bytes[index] = UInt8.random(in: 0...255, using: &random)
                    case 1: bytes.insert(contentsOf: Self.tokens.randomElement(using: &random)!, at: index)
                    case 2 where !bytes.isEmpty: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...8, using: &random)))
                    default: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 16)], at: index)
                    }
                }
            }
            if let value = try? JSONParser.parse(bytes) {
                parsed += 1
                #expect((try? JSONParser.parse(JSONWriter.serialize(value))) != nil)
            }
            var reader = CustomList.Reader(source: "custom.fuzz")
            _ = try? bytes.withUnsafeBytes { chunk in try reader.feed(chunk) { _ in } }
            _ = try? reader.finish { _ in }
        }
        #expect(parsed > 500, "only \(parsed) of \(Self.cases) parsed: the mutations are too wild")
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        let objects = Array(String(repeating: #"{"a":"#, count: 50_000).utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(objects) }
    }

    @Test func hugeNumbersStayNumbers() throws {
        #expect(try JSONParser.parse("9223372036854775808").int == nil)
        #expect(try JSONParser.parse("1e308").int == nil)
        #expect(try JSONParser.parse("-9223372036854775807").int == -9_223_372_036_854_775_807)
        #expect(try JSONParser.parse("60.0").int == 60)
    }

    @Test func everyControlIsEscapedInJSONOutput() {
        let hostile = "a\u{1B}[31m\u{9B}2J\u{9D}0;x\u{7}\u{202E}txt\u{2066}\u{2069}\u{7F}\u{85}z"
        let written = JSONWriter.quoted(hostile)
        #expect(written == #""a\u001b[31m\u009b2J\u009d0;x\u0007\u202etxt\u2066\u2069\u007f\u0085z""#)
        #expect(written.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
        #expect((try? JSONParser.parse(written))?.string == hostile)
    }
}
