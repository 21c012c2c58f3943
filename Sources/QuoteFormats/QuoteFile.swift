import QuoteBase
import QuoteModels
/// The files `quotectl import` reads besides JSON: fortune files (records between `%` lines,
/// the kind `quotectl export --format fortune` and strfile use) and plain text (a quote per
/// line, as `export --format text` and `random --oneline` write them). Each quote's id is a
/// hash of its text, so importing an edited file again changes only what was edited.
public enum QuoteFile {
    public enum Kind: String, CaseIterable, Sendable {
        /// JSON if the file starts with `[`, fortune if a line is a lone `%`, else text.
        case auto, json, fortune, text
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The first byte that is not white space or a UTF-8 byte-order mark's, if any.
    public static func firstSignificantByte(_ bytes: some Collection<UInt8>) -> UInt8? {
        bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) })
    }

    /// What the bytes look like.
    public static func detect(_ bytes: [UInt8]) -> Kind {
        if firstSignificantByte(bytes) == UInt8(ascii: "[") {
            return .json
        }
        var lineStart = true
        for (index, byte) in bytes.enumerated() {
            if lineStart, byte == UInt8(ascii: "%") {
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0x0A
                if next == 0x0A || next == 0x0D { return .fortune }
            }
            lineStart = byte == 0x0A
        }
        return .text
    }

    /// The quotes of a fortune file. Lines of a record are joined with spaces (fortune files
    /// are wrapped for the terminal; an empty line stays a line break); a last line such as
    /// `\t\t-- Mark Twain` is the author. Records that are the same text are one quote.
    public static func fortune(_ bytes: [UInt8], source: String) throws(Failure) -> [Quote] {
        let text = try utf8(bytes)
        var quotes: [Quote] = []
        var record: [Substring] = []
        func finish() {
            defer { record = [] }
            // Trailing blanks go; the leading ones tell an attribution line.
            var lines = record.map { line in String(line.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed()) }
            while lines.first?.allSatisfy(\.isWhitespace) == true { lines.removeFirst() }
            while lines.last?.allSatisfy(\.isWhitespace) == true { lines.removeLast() }
            var author: String?
            if let last = lines.last, let attribution = Self.attribution(last) {
                author = attribution
                lines.removeLast()
            }
            // " %" is how a text line that is just "%" is written inside a record.
            let paragraphs = lines.split(whereSeparator: { $0.allSatisfy(\.isWhitespace) }).map { paragraph in
                paragraph.map { $0 == " %" ? "%" : String($0.drop(while: { $0 == " " || $0 == "\t" })) }.joined(separator: " ")
            }
            let joined = paragraphs.joined(separator: "\n")
            if !joined.isEmpty { quotes.append(quote(joined, author: author, source: source)) }
        }
        // "\r\n" is one Character in Swift: a file with CRLF line ends splits on it too.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line == "%" { finish() } else { record.append(line) }
        }
        finish()
        return unique(quotes)
    }

    /// The quotes of a text file: one per non-blank line; a last " — Author" (or " -- Author")
    /// is the author, as `--oneline` writes it.
    public static func text(_ bytes: [UInt8], source: String) throws(Failure) -> [Quote] {
        let text = try utf8(bytes)
        var quotes: [Quote] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let trimmed = line.trimmingASCIIWhitespace()
            guard !trimmed.isEmpty else { continue }
            var body = trimmed
            var author: String?
            for dash in [" — ", " -- "] {
                if let range = body.ranges(of: dash).last {
                    let name = String(body[range.upperBound...])
                    if !name.isEmpty {
                        author = name
                        body = String(body[..<range.lowerBound])
                    }
                    break
                }
            }
            quotes.append(quote(body, author: author, source: source))
        }
        return unique(quotes)
    }

    /// What is wrong with a quote read from a file (the checks a JSON record gets), or nil.
    public static func problem(with quote: Quote) -> String? {
        let excerpt = String(quote.text.prefix(40))
        for (field, value) in [("text", quote.text), ("author", quote.author ?? "")] {
            if value.unicodeScalars.contains("\u{0}") { return "\"\(excerpt)\": \(field) contains a NUL character (U+0000)" }
        }
        if QuoteLength.length(quote.text) > QuoteLength.maximumLength {
            return "\"\(excerpt)…\": longer than \(QuoteLength.maximumLength) characters"
        }
        return nil
    }

    /// `\t\t-- Mark Twain`, `    ― Seneca`: an indented dash, then the author.
    static func attribution(_ line: String) -> String? {
        guard let first = line.first, first == " " || first == "\t" else { return nil }
        let rest = line.drop(while: { $0 == " " || $0 == "\t" })
        for dash in ["--", "―", "—", "-"] where rest.hasPrefix(dash) {
            let name = rest.dropFirst(dash.count).drop(while: { $0 == " " })
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    static func quote(_ text: String, author: String?, source: String) -> Quote {
        let id = String(FNV1a.hash(text).value, radix: 16)
        return Quote(source: source, upstreamID: id, text: text, author: author, lang: LanguageGuess.guess(text))
    }

    static func unique(_ quotes: [Quote]) -> [Quote] {
        var seen = Set<String>()
        return quotes.filter { seen.insert($0.upstreamID).inserted }
    }

    static func utf8(_ bytes: [UInt8]) throws(Failure) -> String {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Failure(reason: "not UTF-8 text") }
        return text
    }
}
