import QuoteBase
import QuoteModels

/// Plain text: a quote per non-blank line (`split = line`, as `quotectl export --format text`
/// and `random --oneline` write them), or per blank-line separated paragraph whose lines are
/// joined with spaces (`split = paragraph`). A last " — Author" (or " -- Author") is the author;
/// in a paragraph, so is a last line that is only a dash and a name. Ids are derived from the text.
public struct TextReader: ListReader {
    public let source: String
    public let split: ListFormat.Split
    public var format: ListFormat.Kind? { .text }
    private var lines = LineSplitter()
    private var paragraph: [String] = []
    private var paragraphBytes = 0
    private var paragraphLine = 1
    private var droppedBytes = 0

    public init(source: String, split: ListFormat.Split = .line) {
        self.source = source
        self.split = split
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (ListRecord) throws -> Void) throws {
        var lines = self.lines.takeOut()
        defer { self.lines = lines }
        try lines.feed(chunk) { line, number in try take(line, number, body) }
    }

    public mutating func finish(_ body: (ListRecord) throws -> Void) throws {
        var lines = self.lines.takeOut()
        defer { self.lines = lines }
        try lines.finish { line, number in try take(line, number, body) }
        try endParagraph(body)
    }

    private mutating func take(_ line: LineSplitter.Line, _ number: Int, _ body: (ListRecord) throws -> Void) throws {
        let text: String
        switch line {
        case .tooLong(let bytes):
            if split == .line { return try body(RecordBytes.tooLong(bytes, place: .line(number))) }
            if paragraph.isEmpty, droppedBytes == 0 { paragraphLine = number }
            droppedBytes += bytes
            return
        case .text(let bytes):
            text = RecordBytes.text(bytes).trimmingASCIIWhitespace()
            if split == .line {
                guard !text.isEmpty else { return }
                let (quote, author) = Self.attributed(text)
                return try body(RecordBytes.record(text: quote, author: author, source: source, place: .line(number)))
            }
            paragraphBytes += bytes.count
        }
        if text.isEmpty { return try endParagraph(body) }
        if paragraph.isEmpty, droppedBytes == 0 { paragraphLine = number }
        if droppedBytes > 0 || paragraphBytes > lines.maximumLineBytes {
            droppedBytes += text.utf8.count
            paragraph.removeAll()
        } else {
            paragraph.append(text)
        }
    }

    private mutating func endParagraph(_ body: (ListRecord) throws -> Void) throws {
        defer {
            paragraph.removeAll(keepingCapacity: true)
            paragraphBytes = 0
            droppedBytes = 0
        }
        if droppedBytes > 0 { return try body(RecordBytes.tooLong(droppedBytes, place: .line(paragraphLine))) }
        guard var last = paragraph.popLast() else { return }
        var author: String?
        if !paragraph.isEmpty, let name = Self.attributionLine(last) {
            author = name
            last = paragraph.removeLast()
        }
        if author == nil { (last, author) = Self.attributed(last) }
        let text = (paragraph + [last]).joined(separator: " ")
        try body(RecordBytes.record(text: text, author: author, source: source, place: .line(paragraphLine)))
    }

    /// "text — Author": the text and the author after the last dash, if a name follows it.
    static func attributed(_ line: String) -> (String, String?) {
        for dash in [" — ", " -- "] {
            if let range = line.ranges(of: dash).last {
                let name = String(line[range.upperBound...])
                return name.isEmpty ? (line, nil) : (String(line[..<range.lowerBound]), name)
            }
        }
        return (line, nil)
    }

    /// "— Seneca", "-- Seneca", "― Seneca": a line that is only an attribution.
    static func attributionLine(_ line: String) -> String? {
        for dash in ["--", "―", "—"] where line.hasPrefix(dash) {
            let name = line.dropFirst(dash.count).drop(while: { $0 == " " || $0 == "\t" })
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }
}
