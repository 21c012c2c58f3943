/// Writes quotes for other tools: JSON (an array of the `--json` objects), CSV
/// (RFC 4180) or fortune's strfile input (quotes separated by `%` lines).
public enum ExportFormat: String, CaseIterable, Sendable {
    case json, csv, fortune
}

public struct Exporter {
    let picker: QuotePicker

    public init(database: Database) {
        self.picker = QuotePicker(database: database)
    }

    /// Streams the export to `write`; returns how many quotes it wrote.
    @discardableResult
    public func export(source: String?, format: ExportFormat, write: (String) -> Void) throws -> Int {
        var count = 0
        if format == .csv { write("source,id,text,author,category,lang,production,episode\n") }
        if format == .json { write("[") }
        try picker.forEach(source: source) { quote in
            switch format {
            case .json:
                write((count == 0 ? "\n" : ",\n") + quote.json)
            case .csv:
                let fields = [quote.source, quote.upstreamID, quote.text, quote.author ?? "", quote.category ?? "",
                              quote.lang ?? "", quote.production ?? "", quote.episode.map(String.init) ?? ""]
                write(fields.map { Self.csvField(TerminalSanitizer.clean($0)) }.joined(separator: ",") + "\n")
            case .fortune:
                write(Self.fortuneEntry(quote))
            }
            count += 1
        }
        if format == .json { write(count == 0 ? "]\n" : "\n]\n") }
        return count
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// Fortune files are wrapped at 72 columns; so are exported quotes (between words, in
    /// display columns).
    static let fortuneWidth = 72

    /// One strfile record: the text, the author indented as fortune files do, and
    /// the `%` separator. A text line that is just "%" would end the record early,
    /// so it gets a leading space.
    static func fortuneEntry(_ quote: Quote) -> String {
        var entry = ""
        for line in DisplayWidth.wrap(TerminalSanitizer.clean(quote.text), width: fortuneWidth) {
            entry += (line == "%" ? " %" : line) + "\n"
        }
        if let author = quote.author {
            entry += "\t\t-- " + TerminalSanitizer.clean(author).replacing("\n", with: " ") + "\n"
        }
        return entry + "%\n"
    }
}
