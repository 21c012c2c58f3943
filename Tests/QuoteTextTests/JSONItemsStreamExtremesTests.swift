@testable import QuoteText
import Testing
import TestSupport

/// The list at a pointer at its extremes: no input, empty chunks, empty lists, nesting at the
/// parser's limit and one past it, a huge string, malformed and truncated documents.
@Suite(.computing) struct JSONItemsStreamExtremesTests {
    static func read(_ text: String, at pointer: String = "", cuts: [Int] = [], maximumElementBytes: Int = 64,
                     emptyChunks: Bool = false) -> [String] {
        readList(Array(text.utf8), at: pointer, cuts: cuts, maximumElementBytes: maximumElementBytes, emptyChunks: emptyChunks)
    }

    /// The values `bytes` hands over at the root, fed in chunks of `size` bytes.
    static func values(_ bytes: [UInt8], chunksOf size: Int, maximumElementBytes: Int = JSONItemsStream.defaultMaximumElementBytes) throws -> [JSONItemsStream.Element] {
        var stream = JSONItemsStream(pointer: .root, maximumElementBytes: maximumElementBytes)
        var elements: [JSONItemsStream.Element] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            try bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { chunk in
                try stream.feed(chunk) { _, element in elements.append(element) }
            }
        }
        try stream.finish()
        return elements
    }

    @Test func noInputIsNoDocument() throws {
        for pointer in ["", "/results"] {
            let stream = JSONItemsStream(pointer: try JSONPointer(pointer))
            let error = #expect(throws: JSONSyntaxError.self) { try stream.finish() }
            #expect(error?.description == "line 1, column 1: unexpected end of input")
        }
        #expect(Self.read("", emptyChunks: true) == ["error: line 1, column 1: unexpected end of input"])
    }

    @Test func emptyChunksAnywhereChangeNothing() {
        for (pointer, document) in [("", #"[1, {"a": "b"}]"#), ("/r", #"{"x": "y", "r": [1]}"#), ("", "\u{FEFF}[2]"), ("/r", #"{"r": {"id": 1}}"#)] {
            let whole = Self.read(document, at: pointer)
            #expect(!whole.isEmpty && whole.last?.hasPrefix("error: ") == false, "\(whole)")
            let count = document.utf8.count
            #expect(Self.read(document, at: pointer, cuts: Array(0...count), emptyChunks: true) == whole, "\(document.debugDescription)")
        }
    }

    @Test func anEmptyListHandsOverNothing() {
        #expect(Self.read("[]") == [])
        #expect(Self.read("\n[\n]\n", cuts: [1, 2, 3]) == [])
        #expect(Self.read(#"{"r": [], "s": 1}"#, at: "/r") == [])
        #expect(Self.read(#"{"r": [ ]}"#, at: "/r", cuts: [7, 8]) == [])
        #expect(Self.read("[,]") == ["error: line 1, column 2: unexpected character ','"])
    }

    /// An element may nest as deep as the strict parser allows (256 levels) and no deeper; a value
    /// passed over beside the list likewise.
    @Test func nestingAtTheLimitAndOnePast() {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        let atLimit = "[\(nested(256))]", pastLimit = "[\(nested(257))]"
        #expect(Self.read(atLimit, maximumElementBytes: 1_024) == ["0: \(nested(256))"])
        #expect(Self.read(pastLimit, maximumElementBytes: 1_024) == ["error: line 1, column 258: nested more than 256 levels deep"])
        for cut in 0...pastLimit.utf8.count {
            #expect(Self.read(atLimit, cuts: [cut], maximumElementBytes: 1_024) == ["0: \(nested(256))"], "cut at \(cut)")
            #expect(Self.read(pastLimit, cuts: [cut], maximumElementBytes: 1_024).last?.hasSuffix("column 258: nested more than 256 levels deep") == true)
        }
        #expect(Self.read("{\"a\": \(nested(256)), \"r\": [1]}", at: "/r") == ["0: 1"])
        #expect(Self.read("{\"a\": \(nested(257)), \"r\": [1]}", at: "/r") == ["error: line 1, column 263: nested too deeply"])
        #expect(Self.read("{\"a\": \(nested(257)), \"r\": [1]}", at: "/r", cuts: Array(stride(from: 3, to: 540, by: 5)))
            == ["error: line 1, column 263: nested too deeply"])
    }

    /// A string of 3 MiB (Hangul, its characters cut by the chunks) is handed over whole; with a
    /// smaller limit it is measured and skipped.
    @Test func aHugeStringElement() throws {
        let text = String(repeating: "행", count: 1 << 20)
        let bytes = Array("[\"\(text)\", 1]".utf8)
        let read = try Self.values(bytes, chunksOf: 65_536)
        #expect(read.count == 2)
        if case .value(let value) = read.first { #expect(value.string == text) } else { Issue.record("first: \(String(describing: read.first))") }
        let limited = try Self.values(bytes, chunksOf: 65_536, maximumElementBytes: 1 << 20)
        if case .tooLarge(let size) = limited.first { #expect(size == (3 << 20) + 2) } else { Issue.record("not measured") }
        if case .value(let value) = limited.last { #expect(value == .integer(1)) } else { Issue.record("the list did not read on") }
    }

    /// What the strict parser refuses in an element, the stream refuses, at the document's line
    /// and column: control characters, number syntax, bytes after the value; text that is not
    /// UTF-8 is a value of its own (`invalidText`), for the record alone to be refused.
    @Test func malformedElementsAreRefusedAsTheParserRefusesThem() throws {
        #expect(Self.read("[\"a\u{1}b\"]") == ["error: line 1, column 4: control character inside a string (must be escaped)"])
        #expect(Self.read("[-x]") == ["error: line 1, column 3: expected a digit"])
        #expect(Self.read("[1.e]") == ["error: line 1, column 4: expected a digit after '.'"])
        #expect(Self.read("[1e+x]") == ["error: line 1, column 5: expected a digit in the exponent"])
        #expect(Self.read("[01]") == ["error: line 1, column 3: unexpected text after the JSON value"])
        #expect(Self.read("[1]]") == ["0: 1", "error: line 1, column 4: unexpected text after the JSON value"])
        #expect(Self.read(#"{"r": [1]}}"#, at: "/r") == ["0: 1", "error: line 1, column 11: unexpected text after the JSON value"])
        let notUTF8: [UInt8] = [0x5B, 0x22, 0xFF, 0x22, 0x2C, 0x22, 0xE2, 0x82, 0x22, 0x5D]
        for size in 1...notUTF8.count {
            let read = try Self.values(notUTF8, chunksOf: size)
            #expect(read.count == 2)
            for element in read {
                if case .value(let value) = element { #expect(value == .invalidText) } else { Issue.record("\(element)") }
            }
        }
    }

    /// A body cut short anywhere is refused as cut short, at its end, after the elements it held whole.
    @Test func everyTruncationIsAnEndOfInput() {
        let documents = [("", #"[1, "a\"]", {"b": [true, null]}, -2.5]"#),
                         ("/r", #"{"s": {"t": ["]"]}, "r\u0073": 0, "r": [{"k": "v"}, 3]}"#)]
        for (pointer, document) in documents {
            let bytes = Array(document.utf8)
            let whole = readList(bytes, at: pointer)
            #expect(whole.last?.hasPrefix("error: ") == false, "\(whole)")
            for end in 0..<bytes.count {
                let read = readList(Array(bytes[..<end]), at: pointer)
                #expect(read.last == "error: line 1, column \(end + 1): unexpected end of input", "\(document.prefix(end))")
                #expect(whole.starts(with: read.dropLast()), "\(document.prefix(end))")
            }
        }
    }
}
