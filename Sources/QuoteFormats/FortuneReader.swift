import QuoteModels

/// A fortune file (strfile's input): records between lines that are a lone `%`. A record's text
/// is kept as written, as fortune prints it: its lines, blank lines, indentation, runs of spaces
/// and tabs (ASCII art, verse, dialogue); only blanks at the ends of lines and blank lines at
/// the ends of the record go. A last indented line such as `\t\t-- Mark Twain` is the author;
/// `" %"` is a text line that is just `%`. Ids are derived from the text.
public struct FortuneReader: ListReader {
    public let source: String
    public var format: ListFormat.Kind? { .fortune }
    private var lines = LineSplitter()
    /// The record being read: its lines, each ended by LF, capped as one line is.
    private var record: [UInt8] = []
    private var recordLine = 1
    private var droppedBytes = 0

    public init(source: String) {
        self.source = source
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
        try endRecord(body)
    }

    private mutating func take(_ line: LineSplitter.Line, _ number: Int, _ body: (ListRecord) throws -> Void) throws {
        switch line {
        case .text(let bytes):
            if bytes.count == 1, bytes[0] == UInt8(ascii: "%") {
                try endRecord(body)
                recordLine = number + 1
                return
            }
            if record.count + bytes.count + 1 > lines.maximumLineBytes || droppedBytes > 0 {
                droppedBytes += bytes.count + 1
            } else {
                record.append(contentsOf: bytes)
                record.append(0x0A)
            }
        case .tooLong(let bytes):
            droppedBytes += bytes
        }
    }

    private mutating func endRecord(_ body: (ListRecord) throws -> Void) throws {
        defer {
            record.removeAll(keepingCapacity: true)
            droppedBytes = 0
        }
        if droppedBytes > 0 { return try body(RecordBytes.tooLong(droppedBytes + record.count, place: .line(recordLine))) }
        let read: (String, String?)?
        if let ascii = FortuneRecord.ascii(record) {
            read = ascii
        } else {
            // "\r\n" is one Character: a line that ended "\r\r\n" must still end there.
            var lines = RecordBytes.text(record).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            lines.removeLast() // after the last LF
            read = Self.quote(lines)
        }
        guard let (text, author) = read else { return }
        // The place named is the record's first line that has text.
        let firstText = record.firstIndex { !(0x09...0x0D).contains($0) && $0 != 0x20 } ?? 0
        let place = ListPlace.line(recordLine + record[..<firstText].count { $0 == 0x0A })
        try body(RecordBytes.record(text: text, author: author, identity: Self.identity(of: text), source: source, place: place))
    }

    /// A record's text and author, or nil when it has no text.
    static func quote(_ record: [Substring]) -> (String, String?)? {
        // Trailing blanks go; the leading ones are the record's layout (and tell an attribution line).
        let lines = record.map { line in String(line.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed()) }
        func blank(_ line: String) -> Bool { line.allSatisfy(\.isWhitespace) }
        // The record is lines[first..<end], its blank ends passed over by moving the bounds (as `FortuneRecord.ascii` does).
        var first = 0, end = lines.count
        while first < end, blank(lines[first]) { first += 1 }
        while end > first, blank(lines[end - 1]) { end -= 1 }
        var author: String?
        if end > first, let attribution = attribution(lines[end - 1]) {
            author = attribution
            end -= 1
            while end > first, blank(lines[end - 1]) { end -= 1 }
        }
        // " %" is how a text line that is just "%" is written inside a record.
        let text = lines[first..<end].map { line in line == " %" ? "%" : blank(line) ? "" : line }.joined(separator: "\n")
        return text.isEmpty ? nil : (text, author)
    }

    /// `\t\t-- Mark Twain`, `    ― Seneca`: an indented dash, then the author, whose name holds
    /// a letter or a digit (a rule of dashes in ASCII art, `   ----------`, is no author).
    static func attribution(_ line: String) -> String? {
        guard let first = line.first, first == " " || first == "\t" else { return nil }
        let rest = line.drop(while: { $0 == " " || $0 == "\t" })
        for dash in ["--", "―", "—", "-"] where rest.hasPrefix(dash) {
            let name = rest.dropFirst(dash.count).drop(while: { $0 == " " })
            guard name.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
            return String(name)
        }
        return nil
    }

    /// The text as readers before this one kept it, whose hash is the record's id: each
    /// paragraph's lines without their indentation, joined by spaces, paragraphs by line breaks.
    /// nil for a text of one line, which both readings keep alike.
    static func identity(of text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "\n")) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.split(whereSeparator: { $0.allSatisfy(\.isWhitespace) }).map { paragraph in
            paragraph.map { $0.drop(while: { $0 == " " || $0 == "\t" }) }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
