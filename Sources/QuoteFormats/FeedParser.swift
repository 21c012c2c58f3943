import QuoteBase
import CExpat
import Synchronization
import QuoteModels
import QuoteText

/// libexpat driven for a feed: the callbacks collect one entry at a time (`FeedEntry`) and the
/// parser is suspended after each one, so the reader hands it over before expat reads on: what
/// is held is one entry, whatever the feed's length.
///
/// A class because expat's callbacks reach it through a pointer; not Sendable: `FeedReader`
/// reaches its only one inside a lock (`LockedFeedParser`), and expat calls back on that thread.
final class FeedParser {
    /// The namespaces elements are matched by (never by prefix: `<x:creator xmlns:x="…dc…">` is `dc:creator`).
    enum Namespace {
        static let atom = "http://www.w3.org/2005/Atom"
        static let rss1 = "http://purl.org/rss/1.0/"
        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        static let dc = "http://purl.org/dc/elements/1.1/"
        static let content = "http://purl.org/rss/1.0/modules/content/"
        static let xhtml = "http://www.w3.org/1999/xhtml"
    }

    /// What character data is collected into.
    enum Target {
        case entry(FeedEntry.Field)
        case feedAuthor
    }

    private(set) var expat: XML_Parser?
    let source: String
    let pattern: AuthorPattern?
    private(set) var kind: ListFormat.Kind?
    var failure: ListFailure?
    /// Records made but not yet handed over (one, as the parser stops after each entry).
    var pending: [ListRecord] = []

    private var depth = 0
    private var entryDepth: Int?
    private var entry = FeedEntry()
    private var entries = 0
    private var authorDepth: Int?
    private var feedAuthor: String?
    private var capture: (target: Target, depth: Int, markup: FeedEntry.Markup)?
    private var buffer: [UInt8] = []
    /// Inside xhtml content, the depth of a `script`/`style`/… element whose text is no quote's.
    private var hiddenDepth: Int?
    /// Where the last event expat reported ended: what it holds unparsed is the bytes fed past it.
    private(set) var consumed = 0

    init(source: String, pattern: AuthorPattern?) {
        self.source = source
        self.pattern = pattern
        // A space separates a name's namespace URI from its local part: no URI holds one.
        expat = XML_ParserCreateNS(nil, 0x20)
        guard let expat else { return }
        XML_SetUserData(expat, Unmanaged.passUnretained(self).toOpaque())
        FeedCallbacks.install(on: expat)
    }

    deinit {
        if let expat { XML_ParserFree(expat) }
    }

    /// Stops expat for good with `reason`, which the reader throws.
    func fail(_ reason: String) {
        if failure == nil { failure = ListFailure(reason) }
        XML_StopParser(expat, XML_Bool(XML_FALSE))
    }

    func progress() {
        let index = Int(XML_GetCurrentByteIndex(expat))
        if index >= 0 { consumed = index + Int(XML_GetCurrentByteCount(expat)) }
    }

    func start(_ name: String, _ attributes: [String: String]) {
        depth += 1
        progress()
        guard depth <= FeedReader.maximumDepth else {
            return fail(tr("not an Atom or RSS feed: elements are nested deeper than \(FeedReader.maximumDepth)"))
        }
        let (uri, local) = Self.split(name)
        if depth == 1 { return root(uri, local) }
        if let capture {
            if capture.markup == .xhtml, hiddenDepth == nil {
                if HTMLText.hidden.contains(local) { hiddenDepth = depth } else if HTMLText.lineBreaking.contains(local) { lineBreak() }
            }
            return
        }
        if let entryDepth {
            if depth == entryDepth + 1 {
                entryChild(uri, local, attributes)
            } else if let authorDepth, depth == authorDepth + 1, uri == Namespace.atom, local == "name" {
                begin(.entry(.authorName), markup: .text)
            }
        } else if kind == .rss && (uri == "" || uri == Namespace.rss1) && local == "item" || kind == .atom && uri == Namespace.atom && local == "entry" {
            entryDepth = depth
            entry = FeedEntry()
            if let about = attributes[Namespace.rdf + " about"] { entry.fields[.about] = about }
        } else if kind == .atom, depth == 2, uri == Namespace.atom, local == "author" {
            authorDepth = depth
        } else if let authorDepth, depth == authorDepth + 1, uri == Namespace.atom, local == "name" {
            begin(.feedAuthor, markup: .text)
        }
    }

    func end(_ name: String) {
        progress()
        defer { depth -= 1 }
        if let capture, capture.depth == depth {
            let text = String(decoding: buffer, as: UTF8.self)
            buffer = []
            self.capture = nil
            switch capture.target {
            case .entry(let field):
                if entry.fields[field] == nil {
                    entry.fields[field] = text
                    entry.markup[field] = capture.markup
                }
            case .feedAuthor:
                feedAuthor = try? RecordText.optional(.string(text), field: "author")
            }
            return
        }
        if let capture {
            if capture.markup == .xhtml {
                if hiddenDepth == depth { hiddenDepth = nil } else if HTMLText.lineBreaking.contains(Self.split(name).local) { lineBreak() }
            }
            return
        }
        if authorDepth == depth {
            authorDepth = nil
        } else if entryDepth == depth {
            entries += 1
            pending.append(entry.record(place: .entry(entries), source: source, feedAuthor: feedAuthor, pattern: pattern))
            entry = FeedEntry()
            entryDepth = nil
            XML_StopParser(expat, XML_Bool(XML_TRUE))
        }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        progress()
        guard let capture, hiddenDepth == nil else { return }
        if case .entry(let field) = capture.target {
            if entry.tooLarge {
                // Past the cap only the id is still read, to name the entry left out.
                guard field == .id || field == .guid || field == .link, buffer.count + bytes.count <= 4096 else { return }
            } else {
                entry.bytes += bytes.count
                if entry.bytes > FeedReader.maximumEntryBytes {
                    entry.tooLarge = true
                    entry.fields = entry.fields.filter { $0.key == .id || $0.key == .guid || $0.key == .link || $0.key == .about }
                    buffer = []
                    return
                }
            }
        } else if buffer.count + bytes.count > FeedReader.maximumEntryBytes {
            return
        }
        buffer.append(contentsOf: bytes)
    }

    private func root(_ uri: String, _ local: String) {
        switch (uri, local) {
        case (Namespace.atom, "feed"): kind = .atom
        case ("", "rss"), (Namespace.rdf, "RDF"): kind = .rss
        default:
            fail(tr("not an Atom or RSS feed: the document is <\(local)>") + (uri.isEmpty ? "" : tr(" in namespace \(uri)")))
        }
    }

    private func begin(_ target: Target, markup: FeedEntry.Markup) {
        capture = (target, depth, markup)
        buffer = []
        hiddenDepth = nil
    }

    /// An xhtml block element's line break: only after text and never twice, and counted against
    /// the entry's cap like the text (markup alone must not grow what is held).
    private func lineBreak() {
        guard let last = buffer.last, last != 0x0A else { return }
        var newline: UInt8 = 0x0A
        withUnsafePointer(to: &newline) { text(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    private func entryChild(_ uri: String, _ local: String, _ attributes: [String: String]) {
        switch (uri, local) {
        case (Namespace.atom, "title"), (Namespace.atom, "content"), (Namespace.atom, "summary"):
            // Content elsewhere (`src`) is not the entry's text.
            guard attributes["src"] == nil, let field = FeedEntry.Field(rawValue: local) else { return }
            let type = attributes["type"]?.lowercased() ?? "text"
            begin(.entry(field), markup: type == "xhtml" ? .xhtml : type.contains("html") ? .html : .text)
        case (Namespace.atom, "id"), (Namespace.atom, "published"), (Namespace.atom, "updated"):
            begin(.entry(FeedEntry.Field(rawValue: local) ?? .id), markup: .text)
        case (Namespace.atom, "link"):
            let rel = attributes["rel"] ?? "alternate"
            if rel == "alternate", entry.fields[.link] == nil, let href = attributes["href"] { entry.fields[.link] = href }
        case (Namespace.atom, "author"):
            authorDepth = depth
        case (Namespace.atom, "category"):
            if entry.fields[.category] == nil, let term = attributes["label"] ?? attributes["term"] { entry.fields[.category] = term }
        case ("", "description"), (Namespace.rss1, "description"), (Namespace.content, "encoded"):
            begin(.entry(uri == Namespace.content ? .encoded : .description), markup: .html)
        case ("", "title"), (Namespace.rss1, "title"), ("", "link"), (Namespace.rss1, "link"), ("", "guid"),
             ("", "pubDate"), ("", "author"), ("", "category"):
            begin(.entry(FeedEntry.Field(rawValue: local) ?? .title), markup: .text)
        case (Namespace.dc, "creator"):
            begin(.entry(.creator), markup: .text)
        case (Namespace.dc, "date"):
            begin(.entry(.date), markup: .text)
        default:
            break
        }
    }

    /// "URI local" as expat hands a namespaced name over; a name in no namespace is just local.
    static func split(_ name: String) -> (uri: String, local: String) {
        let utf8 = name.utf8
        guard let space = utf8.lastIndex(of: 0x20) else { return ("", name) }
        return (String(name[..<space]), String(name[utf8.index(after: space)...]))
    }
}

/// The one `FeedParser` of a reader, behind a lock: a reader is Sendable (a sync moves it between
/// threads) and may be copied, but the parser and expat's state are touched only inside `withLock`
/// (uncontended: one chunk at a time), where expat's callbacks run too.
final class LockedFeedParser: Sendable {
    private let parser: Mutex<FeedParser>

    init(source: String, pattern: AuthorPattern?) {
        parser = Mutex(FeedParser(source: source, pattern: pattern))
    }

    func withLock<Result: Sendable>(_ body: (FeedParser) throws -> Result) throws -> Result {
        try parser.withLock { parser throws in try body(parser) }
    }
}
