@testable import QuoteText
import Testing
import TestSupport

/// A top-level array read as it arrives (`JSONItemsStream` at the root pointer) gives exactly what
/// the whole body gives: the same elements and the same error at the same line and column, wherever
/// the chunks are cut.
@Suite(.computing) struct JSONTopLevelArrayTests {
    /// Elements as text (or the error), with the document fed in pieces cut at `cuts`.
    static func read(_ text: String, cuts: [Int] = [], maximumElementBytes: Int = 64) -> [String] {
        readList(Array(text.utf8), at: "", cuts: cuts, maximumElementBytes: maximumElementBytes)
    }

    static let documents = [
        "[]", " [ ] ", "\u{FEFF}[1]", "[1, -2.5e3, true, false, null, \"s\"]", #"[{"id": 1, "text": "a\"b\\\"c]}"}, [[], {}]]"#,
        "[\n {\"id\": 1,\n  \"text\": \"행복은 \\ud55c\"}\n]\n", #"[{"id": 1}, {"id": 2},]"#, "[1 2]", "[1,", "[", "", "  ",
        #"{"quotes": []}"#, "\"text\"", "42", "<html>", "[1] x", #"[{"id": 1, "text": "\u0007"}]"#, "[tru]", "[01]",
        #"[{"a": "\#(String(repeating: "x", count: 100))"}, 2]"#, "[\"\u{7}\"]", "[{\"a\":1}\n,\n{\"b\":}]",
        #"[{"a": 1, "a": 2}, 3]"#, "[{\"a\": {\"b\": 1,\n \"b\": 2}}, {\"c\": 1, \"c\": }]",
    ]

    @Test(arguments: documents) func everyCutReadsAsTheWholeBody(document: String) {
        let whole = Self.read(document)
        let count = document.utf8.count
        for cut in 0...count {
            #expect(Self.read(document, cuts: [cut]) == whole, "cut at \(cut) of \(document.debugDescription)")
        }
        #expect(Self.read(document, cuts: Array(0...count)) == whole, "byte by byte: \(document.debugDescription)")
    }

    @Test func elementsAndErrorsAreWhatTheWholeDocumentParserSays() throws {
        #expect(Self.read(#"[1, {"a": [true]}, "x"]"#) == [#"0: 1"#, #"1: {"a":[true]}"#, #"2: "x""#])
        #expect(Self.read("[]") == [])
        // The error names the document's own line and column, as the whole-body parser does.
        let broken = "[\n {\"id\": 1},\n {\"id\": }\n]"
        let whole = try #require(throws: JSONSyntaxError.self) { try JSONParser.parse(broken) }
        #expect(Self.read(broken).last == "error: \(whole)")
        #expect(Self.read("[1,]").last == "error: line 1, column 4: unexpected character ']'")
        #expect(Self.read("[1 2]").last == "error: line 1, column 4: expected ',' or ']' in an array")
        #expect(Self.read("[1] x").last == "error: line 1, column 5: unexpected text after the JSON value")
        #expect(Self.read("[1,").last == "error: line 1, column 4: unexpected end of input")
        #expect(Self.read("").last == "error: line 1, column 1: unexpected end of input")
        #expect(Self.read("<html>").last == "error: line 1, column 1: found '<': this looks like HTML, not JSON")
        #expect(Self.read(#"{"quotes": []}"#).last == "error: NotAnArray(found: \"an object\")")
    }

    @Test func anElementTooLargeIsSkippedWithoutBeingHeld() {
        let big = #"{"text": ""# + String(repeating: "y", count: 500) + #""}"#
        #expect(Self.read("[1, \(big), 3]", cuts: [10, 200, 400]) == ["0: 1", "1: too large (\(big.utf8.count))", "2: 3"])
    }

    /// A record that names a member twice is refused alone, saying which and where (the first
    /// was taken silently); one that is broken as well is a broken body, as before.
    @Test func aMemberNamedTwiceRefusesItsRecordAndTheArrayReadsOn() {
        #expect(Self.read(#"[{"id": 1, "text": "a", "text": "b"}, 2]"#, cuts: [30]) == [
            #"0: refused (line 1, column 25: member "text" appears twice in one object)"#, "1: 2"])
        #expect(Self.read("[1,\n {\"a\": {\"b\": 1, \"b\": 2}}]") == [
            "0: 1", #"1: refused (line 2, column 17: member "b" appears twice in one object)"#])
        #expect(Self.read(#"[{"a": 1, "a": }]"#) == ["error: line 1, column 16: unexpected character '}'"])
    }

    /// Random cuts of random documents (the fuzzer's seeds, mutated) agree with one-piece reading.
    @Test func randomCutsAgree() {
        var random = SeededGenerator(state: 0x5EED_CAFE)
        for _ in 0..<2_000 {
            var text = Array(Self.documents.randomElement(using: &random)!.utf8)
            if Bool.random(using: &random), !text.isEmpty {
                text[Int.random(in: 0..<text.count, using: &random)] = Array("[]{},:\" \\1an".utf8).randomElement(using: &random)!
            }
            let document = String(decoding: text, as: UTF8.self)
            let cuts = (0..<Int.random(in: 1...5, using: &random)).map { _ in Int.random(in: 0...max(1, document.utf8.count), using: &random) }.sorted()
            #expect(Self.read(document, cuts: cuts) == Self.read(document), "\(document.debugDescription) cut at \(cuts)")
        }
    }
}
