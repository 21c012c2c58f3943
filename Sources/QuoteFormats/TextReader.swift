import QuoteBase
import QuoteModels

/// Plain text: a quote per non-blank line (`split = line`, as `quotectl export --format text`
/// and `random --oneline` write them), or per blank-line separated paragraph, kept as written
/// (its line breaks, indentation and runs of spaces: verse stays verse; `split = paragraph`).
/// A last " — Author" (or " -- Author", or " - Author" when a name follows the hyphen) is the
/// author; in a paragraph, so is a last line that is only a dash and a name. Ids are derived
/// from the text.
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
            if split == .line {
                let trimmed = RecordBytes.text(bytes).trimmingASCIIWhitespace()
                guard !trimmed.isEmpty else { return }
                let (quote, author) = Self.attributed(trimmed)
                // Before a hyphen made an author, the whole line was the text its id is the hash of.
                let identity = Self.attributed(trimmed, hyphen: false).0
                return try body(RecordBytes.record(text: quote, author: author, identity: identity == quote ? nil : identity,
                                                   source: source, place: .line(number)))
            }
            // A paragraph's line keeps its indentation; only the blanks after it go.
            text = Self.withoutTrailingBlanks(RecordBytes.text(bytes))
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
        guard !paragraph.isEmpty else { return }
        let identity = Self.identity(of: paragraph)
        var last = paragraph.removeLast()
        var author: String?
        if !paragraph.isEmpty, let name = Self.attributionLine(last.trimmingASCIIWhitespace()) {
            author = name
            last = paragraph.removeLast()
        }
        if author == nil { (last, author) = Self.attributed(last) }
        let text = (paragraph + [last]).joined(separator: "\n")
        try body(RecordBytes.record(text: text, author: author, identity: identity, source: source, place: .line(paragraphLine)))
    }

    /// The paragraph's text as readers before this one kept it, whose hash is the record's id:
    /// its lines trimmed and joined by spaces, a last line or " — Name" as the author only after
    /// a dash (a hyphen made none).
    static func identity(of paragraph: [String]) -> String? {
        var lines = paragraph.map { $0.trimmingASCIIWhitespace() }
        guard var last = lines.popLast() else { return nil }
        if !lines.isEmpty, attributionLine(last, hyphen: false) != nil {
            last = lines.removeLast()
        } else {
            last = attributed(last, hyphen: false).0
        }
        return (lines + [last]).joined(separator: " ")
    }

    /// "text — Author", "text -- Author", "text - Author": the text and the author after the last
    /// dash, if a name follows it. A hyphen-minus is a dash only with a space on each side and a
    /// name after it (`readsAsName`): "well-known", "1-2", "3 - 2" and "this - that" stay text.
    static func attributed(_ line: String, hyphen: Bool = true) -> (String, String?) {
        for dash in hyphen ? [" — ", " -- ", " - "] : [" — ", " -- "] {
            guard let range = line.ranges(of: dash).last else { continue }
            let name = line[range.upperBound...]
            if name.isEmpty || (dash == " - " && !readsAsName(name)) { return (line, nil) }
            return (String(line[..<range.lowerBound]), String(name))
        }
        return (line, nil)
    }

    /// "— Seneca", "-- Seneca", "― Seneca", "- Seneca": a line that is only an attribution (after
    /// a lone hyphen, a space and a name: "-5 degrees" and "- and so on" are text).
    static func attributionLine(_ line: String, hyphen: Bool = true) -> String? {
        for dash in ["--", "―", "—"] where line.hasPrefix(dash) {
            let name = line.dropFirst(dash.count).drop(while: { $0 == " " || $0 == "\t" })
            return name.isEmpty ? nil : String(name)
        }
        guard hyphen, line.hasPrefix("- ") else { return nil }
        let name = line.dropFirst(2).drop(while: { $0 == " " || $0 == "\t" })
        return readsAsName(name) ? String(name) : nil
    }

    /// Lower-case words a name may hold: "Antoine de Saint-Exupéry", "Sun Tzu, The Art of War".
    static let nameParticles: Set<Substring> = ["de", "del", "della", "der", "di", "da", "du", "des", "van", "von",
                                                "den", "la", "le", "bin", "ibn", "al", "y", "of", "the", "and"]

    /// What follows a lone hyphen reads as a name: one to six words, the first beginning with a
    /// letter that is not lower case (a capital, or a script without case: 공자, 老子), and no word
    /// beginning with a lower-case letter but a name's particles ("Do - or do not" is no name).
    static func readsAsName(_ text: Substring) -> Bool {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard (1...6).contains(words.count), let first = words[0].first, first.isLetter, !first.isLowercase else { return false }
        return words.allSatisfy { word in word.first?.isLowercase != true || nameParticles.contains(word) }
    }

    /// `line` without the white space at its end.
    static func withoutTrailingBlanks(_ line: String) -> String {
        guard let last = line.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(line[...last])
    }
}
