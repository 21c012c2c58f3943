@testable import QuoteText
import Testing
import TestSupport

/// Skip a value (`JSONTokenizer.skipValue`): a value passed over ends where it ends, wherever the
/// chunks are cut, and what can be told wrong without parsing it is refused at its own line and
/// column.
@Suite(.computing) struct JSONTokenizerTests {
    /// Where the value at the start of `text` ended (the document's offset of the byte after it),
    /// "open" when the text ended first, or the error; fed in pieces cut at `cuts`.
    static func skip(_ text: String, cuts: [Int] = []) -> String {
        let bytes = Array(text.utf8)
        var tokenizer = JSONTokenizer()
        var start = 0
        do {
            for end in cuts.filter({ $0 > 0 && $0 < bytes.count }) + [bytes.count] where end >= start {
                let ended = try bytes[start..<end].withUnsafeBufferPointer { chunk -> Int? in
                    var index = 0
                    if try tokenizer.skipValue(chunk, &index) { return index }
                    tokenizer.finishChunk(of: chunk.count)
                    return nil
                }
                if let ended { return "ended at \(start + ended)" }
                start = end
            }
            return "open"
        } catch {
            return "error: \(error)"
        }
    }

    static let values: [(String, String)] = [
        (#"{"a": [1, "]}\"", {"b": null}], "c": "x\\"}, 2"#, "ended at 43"),
        (#""a \" b \\" x"#, "ended at 11"),
        ("  [ ]\n", "ended at 5"),
        ("123, 4", "ended at 3"),
        ("-1.5e3]", "ended at 6"),
        ("true}", "ended at 4"),
        ("null\n", "ended at 4"),
        ("\"행복\" ", "ended at 8"),
        ("[1, [2, {\"x\": \"", "open"),
        ("12", "open"),
        ("", "open"),
        ("[1}", "error: line 1, column 3: unexpected character '}'"),
        ("{\"a\": [\n\"b\n\", 1}]}", "error: line 3, column 5: unexpected character '}'"),
        ("<p>", "error: line 1, column 1: found '<': this looks like HTML, not JSON"),
        (":", "error: line 1, column 1: unexpected character ':'"),
        ("\n ]", "error: line 2, column 2: unexpected character ']'"),
        ("\u{1}", "error: line 1, column 1: unexpected character '\\x1'"),
    ]

    @Test(arguments: values) func everyCutSkipsAsTheWholeText(text: String, outcome: String) {
        #expect(Self.skip(text) == outcome)
        let count = text.utf8.count
        for cut in 0...count {
            #expect(Self.skip(text, cuts: [cut]) == outcome, "cut at \(cut) of \(text.debugDescription)")
        }
        #expect(Self.skip(text, cuts: Array(0...count)) == outcome, "byte by byte: \(text.debugDescription)")
    }

    /// A value passed over may nest as deep as the parser allows (256 levels), and no deeper: the
    /// bracket past the limit is named, in whatever chunk it lies.
    @Test func nestingIsCappedAtTheParsersLimit() {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        #expect(Self.skip(nested(256)) == "ended at 512")
        #expect(Self.skip(nested(257)) == "error: line 1, column 257: nested too deeply")
        #expect(Self.skip(nested(257), cuts: Array(stride(from: 1, to: 514, by: 7))) == "error: line 1, column 257: nested too deeply")
        // Braces and brackets mixed, each level closed in kind.
        let openers = String(repeating: #"{"a":["#, count: 128)
        let mixed = openers + String(repeating: "]}", count: 128)
        #expect(Self.skip(mixed) == "ended at \(mixed.utf8.count)")
        #expect(Self.skip(mixed + "]") == "ended at \(mixed.utf8.count)")
        // One level more: its last '[' (after the first, in column openers + 1) is the 257th.
        #expect(Self.skip("[" + mixed) == "error: line 1, column \(openers.utf8.count + 1): nested too deeply")
    }

    /// A huge string passed over, in chunks of any size, costs nothing but the scan.
    @Test func aHugeStringIsPassedOver() {
        let huge = "\"" + String(repeating: "y\\\"", count: 1 << 20) + "\""
        let cuts = Array(stride(from: 4_093, to: huge.utf8.count, by: 4_093))
        #expect(Self.skip(huge + ", 1", cuts: cuts) == "ended at \(huge.utf8.count)")
    }
}
