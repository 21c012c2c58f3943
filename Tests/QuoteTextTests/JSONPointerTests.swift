@testable import QuoteText
import Testing
import TestSupport

/// RFC 6901's own examples, its malformed pointers, and the list found at a pointer as a body
/// arrives: what lies around it is passed over, and every cut reads as the whole body.
@Suite struct JSONPointerTests {
    /// RFC 6901, section 5.
    static let rfcDocument = #"{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}"#

    @Test(arguments: [
        ("/foo", #"["bar","baz"]"#), ("/foo/0", #""bar""#), ("/", "0"), ("/a~1b", "1"), ("/c%d", "2"), ("/e^f", "3"),
        ("/g|h", "4"), (#"/i\j"#, "5"), (#"/k"l"#, "6"), ("/ ", "7"), ("/m~0n", "8"),
    ])
    func theRFCsExamplesResolve(pointer: String, value: String) throws {
        let document = try JSONParser.parse(Self.rfcDocument)
        let found = try #require(try JSONPointer(pointer).resolve(in: document))
        #expect(JSONWriter.serialize(found) == value)
    }

    @Test func theEmptyPointerIsTheWholeDocument() throws {
        let document = try JSONParser.parse(Self.rfcDocument)
        #expect(try JSONPointer("").resolve(in: document) == document)
        #expect(JSONPointer.root.isRoot)
        #expect(try JSONPointer("/a~1b/0").tokens == ["a/b", "0"])
        #expect(try JSONPointer("/~01").tokens == ["~1"])  // ~0 first, never "~1" read twice
        #expect(try JSONPointer("//").tokens == ["", ""])
    }

    @Test(arguments: [
        ("foo", "it must start with '/'"), ("/~2", "'~' must be followed by 0 or 1"), ("/a~", "'~' must be followed by 0 or 1"),
        ("/~", "'~' must be followed by 0 or 1"), ("/" + String(repeating: "a", count: 1_024), "longer than 1024 bytes"),
    ])
    func malformedPointersAreNamed(text: String, reason: String) {
        let error = #expect(throws: JSONPointer.Malformed.self) { try JSONPointer(text) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("\"\(text.prefix(40))") == true)
    }

    @Test func indexesAreDigitsWithoutALeadingZero() throws {
        #expect(JSONPointer.index("0") == 0)
        #expect(JSONPointer.index("12") == 12)
        #expect(JSONPointer.index("01") == nil)
        #expect(JSONPointer.index("-") == nil)
        #expect(JSONPointer.index("-1") == nil)
        #expect(JSONPointer.index("") == nil)
        #expect(JSONPointer.index("9223372036854775807") == Int.max)
        #expect(JSONPointer.index("99999999999999999999999") == Int.max)
        #expect(try JSONPointer("/foo/2").resolve(in: JSONParser.parse(Self.rfcDocument)) == nil)
        #expect(try JSONPointer("/foo/-").resolve(in: JSONParser.parse(Self.rfcDocument)) == nil)
        #expect(try JSONPointer("/foo/0/x").resolve(in: JSONParser.parse(Self.rfcDocument)) == nil)
    }
}

@Suite(.computing) struct JSONItemsStreamTests {
    /// Elements as text (or the error), the document fed in pieces cut at `cuts`.
    static func read(_ text: String, at pointer: String, cuts: [Int] = [], loneObject: Bool = false) -> [String] {
        readList(Array(text.utf8), at: pointer, cuts: cuts, loneObject: loneObject)
    }

    static let documents: [(String, String)] = [
        ("/results", #"{"count": 2, "results": [1, {"a": "]"}], "page": 1}"#),
        ("/results", "\u{FEFF}{\"results\":[]}"),
        ("/quotes", #"{"skip": {"x": [1, [2, {"y": "}"}]]}, "quotes": [{"id": 1}], "total": 1, "more": [true, null, -1.5e3]}"#),
        ("/data", #"{"data": {"id": 60, "content": "행복"}}"#),
        ("/a/1/b", #"{"a": [{"b": [9]}, {"c": 0, "b": [7, 8]}, {}], "z": "\\\""}"#),
        ("/a~1b", #"{"a\/b": [1], "a/b ": [2]}"#),
        ("/results", #"{"r\u0065sults": [3]}"#),
        ("/results", #"{"quotes": []}"#), ("/results", #"{"results": "x"}"#), ("/results", #"{"results": 5}"#),
        ("/a/b/c", #"{"a": {"b": 1}}"#), ("/5", "[1, 2]"), ("/x", "[1]"), ("/results", #"{"results": [], "results": [1]}"#),
        ("/results", #"{"results": [1]"#), ("/results", #"{"results": [1]} x"#), ("/results", #"{"results": [1],}"#),
        ("/results", #"{"a": [1}, "results": [1]}"#), ("/results", "<html>"), ("/results", ""), ("/results", #"{"a" 1}"#),
        ("/results", #"{"results": [1] "b": 2}"#), ("/results", #"{"a": tru, "results": [1]}"#), ("/r", "[1]"), ("/0", "[[5, 6]]"),
        // Names escaped or repeated, and newlines inside what is passed over, cut anywhere.
        ("/r\\", #"{"a\"b": 1, "r\\": [2], "r": [3]}"#), ("/r", #"{"\u0072": [1], "r": [2]}"#), ("/r", #"{"r\x": [1]}"#),
        ("/r", "{\n\"a\": \"x\ny\",\n \"r\": [\n1,\n {\"b\": }]}"), ("/r", "{\"a\": [{\"b\": \"]\\\\\"}\n], \"r\": [1]}"),
    ]

    @Test(arguments: documents) func everyCutReadsAsTheWholeBody(pointer: String, document: String) {
        let whole = Self.read(document, at: pointer)
        let count = document.utf8.count
        for cut in 0...count {
            #expect(Self.read(document, at: pointer, cuts: [cut]) == whole, "cut at \(cut) of \(document.debugDescription)")
        }
        #expect(Self.read(document, at: pointer, cuts: Array(0...count)) == whole, "byte by byte: \(document.debugDescription)")
    }

    @Test func theListIsFoundWhereThePointerSays() {
        #expect(Self.read(Self.documents[0].1, at: "/results") == ["0: 1", #"1: {"a":"]"}"#])
        #expect(Self.read(Self.documents[1].1, at: "/results") == [])
        #expect(Self.read(Self.documents[2].1, at: "/quotes") == [#"0: {"id":1}"#])
        #expect(Self.read(Self.documents[4].1, at: "/a/1/b") == ["0: 7", "1: 8"])
        #expect(Self.read(Self.documents[5].1, at: "/a~1b") == ["0: 1"])
        #expect(Self.read(Self.documents[6].1, at: "/results") == ["0: 3"])
        #expect(Self.read("[[5, 6]]", at: "/0") == ["0: 5", "1: 6"])
        #expect(Self.read(#"{"a\"b": 1, "r\\": [2], "r": [3]}"#, at: "/r\\") == ["0: 2"])
    }

    /// A member name is read as the strict parser reads it, wherever its escapes are cut, and a
    /// newline inside what is passed over still counts in the document's lines.
    @Test func namesAreDecodedAndLinesCounted() {
        #expect(Self.read(#"{"\u0072": [1], "r": [2]}"#, at: "/r") == ["0: 1", #"error: items /r: found a second member "r""#])
        #expect(Self.read(#"{"r\x": [1]}"#, at: "/r") == [#"error: line 1, column 7: a member name: unknown escape '\x'"#])
        #expect(Self.read("{\n\"a\": \"x\ny\",\n \"r\": [\n1,\n {\"b\": }]}", at: "/r")
            == ["0: 1", "error: line 6, column 8: unexpected character '}'"])
    }

    @Test func aLoneObjectIsAListOfOne() {
        #expect(Self.read(#"{"data": {"id": 60, "content": "행복"}}"#, at: "/data") == [#"0: {"id":60,"content":"행복"}"#])
        // At the root only where asked (a mapped list): a Gist's list must be an array.
        #expect(Self.read(#"{"q": "x"}"#, at: "", loneObject: true) == [#"0: {"q":"x"}"#])
        #expect(Self.read(#"{"q": "x"}"#, at: "") == [#"error: NotAnArray(found: "an object")"#])
        #expect(Self.read(#"{"q": "x"} 1"#, at: "", loneObject: true).last == "error: line 1, column 12: unexpected text after the JSON value")
    }

    @Test func aPointerThatLeadsNowhereSaysWhatWasFound() {
        func failure(_ document: String, _ pointer: String) -> String? { Self.read(document, at: pointer).last }
        #expect(failure(#"{"quotes": []}"#, "/results") == #"error: items /results: found an object with no member "results""#)
        #expect(failure(#"{"results": "x"}"#, "/results") == "error: items /results: found a string, not an array or an object")
        #expect(failure(#"{"a": {"b": 1}}"#, "/a/b/c") == "error: items /a/b/c: found a number at /a/b")
        #expect(failure("[1, 2]", "/5") == "error: items /5: found an array of 2 elements, none numbered 5")
        #expect(failure("[1]", "/x") == #"error: items /x: found an array, and "x" is no index"#)
        #expect(failure(#"{"results": [], "results": [1]}"#, "/results") == #"error: items /results: found a second member "results""#)
        #expect(failure(#"{"a": {"c": []}}"#, "/a~1b/c") == #"error: items /a~1b/c: found an object with no member "a/b""#)
        #expect(failure(#"{"a": {"c": []}}"#, "/a/b") == #"error: items /a/b: found an object with no member "b" at /a"#)
    }

    @Test func syntaxErrorsNameTheDocumentsLineAndColumn() {
        #expect(Self.read(#"{"results": [1]"#, at: "/results").last == "error: line 1, column 16: unexpected end of input")
        #expect(Self.read("{\"results\": [1]}\n x", at: "/results").last == "error: line 2, column 2: unexpected text after the JSON value")
        #expect(Self.read("{\"a\": [1},\n \"results\": [1]}", at: "/results").last == "error: line 1, column 9: unexpected character '}'")
        #expect(Self.read("{\"results\": [\n1 2]}", at: "/results").last == "error: line 2, column 3: expected ',' or ']' in an array")
        #expect(Self.read("<html>", at: "/results").last == "error: line 1, column 1: found '<': this looks like HTML, not JSON")
        #expect(Self.read(#"{"a" 1}"#, at: "/results").last == "error: line 1, column 6: expected ':' after a member name")
    }

    /// A member beside the list, however large, is passed over without being held; so is a member's
    /// name longer than any pointer's token.
    @Test func membersAroundTheListAreNotHeld() throws {
        let big = String(repeating: "y", count: 3 << 20)
        let longName = String(repeating: "k", count: 20_000)
        let document = "{\"\(longName)\": 1, \"before\": \"\(big)\", \"nested\": [{\"s\": \"\(big)\"}], \"results\": [1, 2], \"after\": \"\(big)\"}"
        let cuts = Array(stride(from: 4_093, to: document.utf8.count, by: 4_093))
        #expect(Self.read(document, at: "/results", cuts: cuts) == ["0: 1", "1: 2"])
        #expect(Self.read("{\"\(longName)\": [5]}", at: "/" + String(repeating: "k", count: 1_000)).last?.hasPrefix("error: items /kkk") == true)
    }

    @Test func nestingIsCappedWhereItIsSkipped() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(Self.read("{\"a\": \(deep), \"results\": []}", at: "/results").last == "error: line 1, column 263: nested too deeply")
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(Self.read("{\"a\": \(fine), \"results\": [1]}", at: "/results") == ["0: 1"])
    }

    /// A list reads the same at the root as inside a document: the same elements (a refused one
    /// is refused at its own place), and an error wherever the top-level array has one. (An object
    /// is a list of one inside a document, at the root only where asked: aLoneObjectIsAListOfOne.)
    @Test(arguments: JSONTopLevelArrayTests.documents) func aListReadsTheSameAtTheRootAndInside(document: String) {
        guard !document.hasPrefix("{") else { return }
        func elements(_ read: [String]) -> [String] {
            read.filter { !$0.hasPrefix("error: ") }.map { entry in
                entry.contains(": refused (") ? String(entry.prefix { character in character != "(" }) : entry
            }
        }
        let atRoot = Self.read(document, at: "")
        let unmarked = document.hasPrefix("\u{FEFF}") ? String(document.dropFirst()) : document
        let inside = Self.read("{\"list\": \(unmarked)}", at: "/list")
        #expect(elements(inside) == elements(atRoot), "\(inside)")
        #expect(inside.last?.hasPrefix("error: ") == atRoot.last?.hasPrefix("error: "), "\(inside)")
    }

    @Test func randomCutsAgree() {
        var random = SeededGenerator(state: 0xF00D_1234)
        for _ in 0..<2_000 {
            let (pointer, original) = Self.documents.randomElement(using: &random)!
            var text = Array(original.utf8)
            if Bool.random(using: &random), !text.isEmpty {
                text[Int.random(in: 0..<text.count, using: &random)] = Array("[]{},:\" \\1an".utf8).randomElement(using: &random)!
            }
            let document = String(decoding: text, as: UTF8.self)
            let cuts = (0..<Int.random(in: 1...5, using: &random)).map { _ in Int.random(in: 0...max(1, document.utf8.count), using: &random) }.sorted()
            #expect(Self.read(document, at: pointer, cuts: cuts) == Self.read(document, at: pointer), "\(document.debugDescription) cut at \(cuts)")
        }
    }
}
