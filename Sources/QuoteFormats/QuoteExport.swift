import QuoteBase
import QuoteModels
import QuoteText
/// Writes quotes for other tools: JSON (an array of the `--json` objects), CSV
/// (RFC 4180), fortune's strfile input (quotes separated by `%` lines) or text (a quote per
/// line) or an Atom feed (`AtomExport`). Every format reads back with `quotectl import` (CSV's
/// formula guard is taken off again).
public enum ExportFormat: String, CaseIterable, Sendable {
    case json, csv, fortune, text, atom
}

/// One export as it streams: the format's header before the first quote, an entry per quote,
/// the footer at the end. An export of no quote writes nothing, not even an empty array, header
/// row or feed: nothing found is said on stderr with exit 66, and stdout holds no list a script
/// would take for an emptied one. The quotes come from the store (`QuotePicker.forEach`) or from
/// elsewhere (a user's liked ones), written alike.
public struct QuoteExport {
    let format: ExportFormat
    /// What an Atom export's feed is named after (a source, "liked"; nil: every source).
    let name: String?
    let write: (String) -> Void
    /// When it is written (an Atom feed's `updated`), in Unix seconds.
    let now: Int
    /// How many quotes it wrote.
    public private(set) var count = 0

    public init(format: ExportFormat, name: String?, now: Int = UnixTime.now(), write: @escaping (String) -> Void) {
        self.format = format
        self.name = name
        self.now = now
        self.write = write
    }

    public mutating func add(_ quote: Quote) {
        if count == 0 { write(Self.header(format, source: name, now: now)) }
        write(Self.entry(quote, format: format, first: count == 0))
        count += 1
    }

    /// The footer, when a quote was written.
    public func finish() {
        if count > 0 { write(Self.footer(format)) }
    }

    static func header(_ format: ExportFormat, source: String?, now: Int) -> String {
        switch format {
        case .csv: return "source,id,text,author,category,lang,production,episode\n"
        case .json: return "["
        case .atom: return AtomExport.header(source: source, now: now)
        case .fortune, .text: return ""
        }
    }

    static func entry(_ quote: Quote, format: ExportFormat, first: Bool) -> String {
        switch format {
        case .json:
            return (first ? "\n" : ",\n") + quote.json
        case .csv:
            let fields = [quote.source, quote.upstreamID, quote.text, quote.author ?? "", quote.category ?? "",
                          quote.lang ?? "", quote.production ?? "", quote.episode.map(String.init) ?? ""]
            return fields.map { Self.csvField(TerminalSanitizer.clean($0)) }.joined(separator: ",") + "\n"
        case .fortune:
            return fortuneEntry(quote)
        case .text:
            return textLine(quote)
        case .atom:
            return AtomExport.entry(quote)
        }
    }

    static func footer(_ format: ExportFormat) -> String {
        switch format {
        case .json: return "\n]\n"
        case .atom: return AtomExport.footer
        case .csv, .fortune, .text: return ""
        }
    }

    /// One CSV cell. A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
    /// taken for a formula by spreadsheets (`=cmd|' /C calc'!A0`): as OWASP recommends, it gets
    /// a leading `'`, which they show as text. Quoted when it holds a comma, quote or line break.
    static func csvField(_ text: String) -> String {
        var text = text
        // A cell that begins with a quote mark gets one more, so that import, which takes one off, gives it back.
        if let first = text.unicodeScalars.first, "=+-@\t\r'".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// The quote on one line (white space runs made one space), a dash, its author.
    static func textLine(_ quote: Quote) -> String {
        TerminalSanitizer.oneLine(quote.text) + (quote.author.map { " — " + TerminalSanitizer.oneLine($0) } ?? "") + "\n"
    }

    /// One strfile record: the text as stored, line for line (indentation and blank lines kept,
    /// never rewrapped: fortune prints a record as written), the author indented as fortune files
    /// do, and the `%` separator. A text line that is just "%" would end the record early, so it
    /// gets a leading space (import reads it back as "%").
    static func fortuneEntry(_ quote: Quote) -> String {
        var entry = ""
        for line in TerminalSanitizer.clean(quote.text).split(separator: "\n", omittingEmptySubsequences: false) {
            entry += (line == "%" ? " %" : String(line)) + "\n"
        }
        if let author = quote.author {
            entry += "\t\t-- " + TerminalSanitizer.clean(author).replacing("\n", with: " ") + "\n"
        }
        return entry + "%\n"
    }
}
