import QuoteBase
import QuoteModels
import QuoteText

/// What one Atom `entry` or RSS `item` said, as the parser collected it, and the quote it makes.
struct FeedEntry {
    /// The elements (and attributes) of an entry a quote is made of, by what they mean.
    enum Field: String {
        case title, content, summary, description, encoded = "content:encoded"
        case id, guid, about = "rdf:about", link
        case published, updated, pubDate, date = "dc:date"
        case authorName = "author/name", author, creator = "dc:creator", category
    }

    /// How a text field is written.
    enum Markup {
        case text, html, xhtml
    }

    var fields: [Field: String] = [:]
    var markup: [Field: Markup] = [:]
    /// The bytes the entry's fields hold so far: past the cap, the entry is a problem.
    var bytes = 0
    var tooLarge = false

    /// The entry's quote, or the problem that leaves it out.
    func record(place: ListPlace, source: String, feedAuthor: String?, pattern: AuthorPattern?) -> ListRecord {
        let upstreamID = idText()
        if tooLarge {
            return .problem(ListProblem(place: place, upstreamID: upstreamID,
                                        reason: tr("larger than \(FeedReader.maximumEntryBytes >> 20) MiB")))
        }
        if let upstreamID, upstreamID.unicodeScalars.count > CustomList.maximumIDLength {
            return .problem(ListProblem(place: place, upstreamID: String(upstreamID.prefix(64)) + "…",
                                        reason: tr("the id is longer than \(CustomList.maximumIDLength) characters")))
        }
        do throws(FieldProblem) {
            let (field, raw) = textField()
            var text = try RecordText.required(raw.map(JSONValue.string), field: field.rawValue)
            var author: String?
            for (source, name) in [(Field.authorName, "author"), (.author, "author"), (.creator, "dc:creator")] where author == nil {
                author = try RecordText.optional(fields[source].map(JSONValue.string), field: name)
            }
            if let named = author, fields[.authorName] == nil { author = Self.nameOfAddress(named) }
            if author == nil { author = feedAuthor }
            if author == nil, let pattern, let found = pattern.match(text) {
                author = try RecordText.optional(.string(found.author), field: "author")
                text = try RecordText.required(.string(found.rest), field: field.rawValue)
            }
            let category = try RecordText.optional(fields[.category].map(JSONValue.string), field: "category")
            let quote = Quote(source: source, upstreamID: upstreamID ?? RecordBytes.derivedID(text), text: text,
                              author: author, category: category, lang: LanguageGuess.guess(text), published: date())
            return .quote(ListEntry(quote, place: place, idIsDerived: upstreamID == nil))
        } catch {
            return .problem(ListProblem(place: place, upstreamID: upstreamID, reason: error.reason))
        }
    }

    /// Atom's `id`, RSS's `guid` (RSS 1.0's `rdf:about`), else the link: nil when none is usable.
    func idText() -> String? {
        for field in [Field.id, .guid, .about, .link] {
            if let id = try? RecordText.optional(fields[field].map(JSONValue.string), field: field.rawValue) { return id }
        }
        return nil
    }

    /// The field the quote's text comes from, reduced to plain text.
    func textField() -> (Field, String?) {
        var blank: Field?
        for field in [Field.content, .summary, .description, .encoded, .title] {
            guard let raw = fields[field] else { continue }
            let text: String
            switch markup[field] {
            case .html: text = HTMLText.text(raw)
            case .xhtml: text = Self.plain(raw)
            // Plain text is the text as written (what `export --format atom` wrote reads back as it
            // was): only line ends made LF; RecordText trims its ends.
            default: text = raw.replacing("\r\n", with: "\n")
            }
            if !text.isEmpty { return (field, text) }
            if blank == nil { blank = field }
        }
        // Nothing to read: "is empty" names the first field there was, "missing" the last resort.
        return blank.map { ($0, "") } ?? (.title, nil)
    }

    /// Plain text and XHTML's text nodes: white space runs within a line become one space, blank lines go.
    static func plain(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    /// RSS 2.0's `author` is an address, often with the name after it: `editor@example.com (Jo Doe)`.
    static func nameOfAddress(_ author: String) -> String {
        guard author.contains("@"), author.hasSuffix(")"), let open = author.firstIndex(of: "(") else { return author }
        let name = author[author.index(after: open)..<author.index(before: author.endIndex)].trimmingPrefix(" ")
        return name.isEmpty ? author : String(name)
    }

    /// Atom's `published` (else `updated`), RSS's `pubDate`, RSS 1.0's `dc:date`.
    func date() -> Int? {
        if let text = fields[.published] ?? fields[.updated] ?? fields[.date] {
            return RFC3339Date.parse(Self.plain(text))
        }
        return fields[.pubDate].flatMap { RFC822Date.parse(Self.plain($0)) }
    }
}
