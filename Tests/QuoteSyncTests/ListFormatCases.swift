import QuoteBase
import QuoteFormats
import QuoteModels
import QuoteText

/// One way a custom list can be written, for tests that hold every format to the same promises:
/// how to write a list of quotes in it, and what a sync's line names for its first record.
struct ListFormatCase: Sendable, CustomStringConvertible {
    /// A record of a list: a quote (its date, when the format carries one), or one that is invalid.
    enum Item: Sendable {
        case quote(id: Int, text: String, published: Int?)
        /// Invalid for the format: an empty text (JSON, CSV, feeds) or a NUL (fortune, text).
        case bad
        /// A NUL inside the text.
        case nul(id: Int)
    }

    let name: String
    let format: ListFormat
    let contentType: String
    let render: @Sendable ([Item]) -> String
    /// How a sync's line names the list's first record ("record 1", "line 2", "entry 1").
    let firstPlace: String
    /// Whether the format can carry control characters and a NUL at all (XML 1.0 cannot).
    let carriesControls: Bool
    /// Whether a body that ends mid-record (no transport error) is malformed as a whole.
    let structured: Bool
    /// Whether the quotes the list no longer has stay (feeds).
    let archive: Bool

    var description: String { name }

    static func quotes(_ ids: ClosedRange<Int>, text: String = "quote", date: Int? = nil) -> [Item] {
        ids.map { id in .quote(id: id, text: "\(text) \(id)", published: date.map { $0 + id }) }
    }

    static let all: [ListFormatCase] = [json, mappedJSON, fortune, text, csv, atom, rss, auto]

    /// The cases whose format is read (a list of one quote gives that quote): until every reader
    /// exists, the others are left out of the table rather than failing it.
    static let readable: [ListFormatCase] = all.filter(\.isRead)

    var isRead: Bool {
        guard var reader = try? ListReaders.reader(for: format, source: "custom.probe", contentType: contentType) else { return false }
        var texts: [String] = []
        let body = Array(render([.quote(id: 1, text: "probe", published: nil)]).utf8)
        let collect: (ListRecord) -> Void = { if case .quote(let entry) = $0 { texts.append(entry.quote.text) } }
        do {
            try body.withUnsafeBytes { try reader.feed($0, collect) }
            try reader.finish(collect)
        } catch {
            return false
        }
        return texts == ["probe"]
    }

    /// The Gist's list: JSON with the default fields, and a date.
    static let json = ListFormatCase(
        name: "json", format: .json, contentType: "application/json",
        render: { items in
            "[" + items.map { item -> String in
                switch item {
                case .quote(let id, let text, let published):
                    return #"{"id": \#(id), "text": \#(JSONText.quoted(text)), "source": "A""#
                        + (published.flatMap(UTCTimestamp.format).map { #", "published": "\#($0)""# } ?? "") + "}"
                case .bad: return #"{"id": 99, "text": ""}"#
                case .nul(let id): return #"{"id": \#(id), "text": "a\u0000b"}"#
                }
            }.joined(separator: ",\n") + "]"
        }, firstPlace: "record 1", carriesControls: true, structured: true, archive: false)

    static let mappedJSON = ListFormatCase(
        name: "json (mapped)", format: {
            var format = ListFormat(kind: .json)
            format.items = "/data/quotes"
            format.fields = [.id: "key", .text: "quote", .author: "by"]
            return format
        }(), contentType: "application/json",
        render: { items in
            #"{"data": {"quotes": ["# + items.map { item -> String in
                switch item {
                case .quote(let id, let text, _): return #"{"key": "\#(id)", "quote": \#(JSONText.quoted(text)), "by": "A"}"#
                case .bad: return #"{"key": "bad", "quote": ""}"#
                case .nul(let id): return #"{"key": "\#(id)", "quote": "a\u0000b"}"#
                }
            }.joined(separator: ",\n") + "]}}"
        }, firstPlace: "record 1", carriesControls: true, structured: true, archive: false)

    static let fortune = ListFormatCase(
        name: "fortune", format: ListFormat(kind: .fortune), contentType: "text/plain",
        render: { items in
            items.map { item -> String in
                switch item {
                case .quote(_, let text, _): return text + "\n%\n"
                case .bad, .nul: return "bad\u{0}record\n%\n"
                }
            }.joined()
        }, firstPlace: "line 1", carriesControls: true, structured: false, archive: false)

    static let text = ListFormatCase(
        name: "text", format: ListFormat(kind: .text), contentType: "text/plain",
        render: { items in
            items.map { item -> String in
                switch item {
                case .quote(_, let text, _): return text + "\n"
                case .bad, .nul: return "bad\u{0}record\n"
                }
            }.joined()
        }, firstPlace: "line 1", carriesControls: true, structured: false, archive: false)

    static let csv = ListFormatCase(
        name: "csv", format: {
            var format = ListFormat(kind: .csv)
            format.fields = [.id: "id", .text: "text", .author: "author"]
            return format
        }(), contentType: "text/csv",
        render: { items in
            "id,text,author\r\n" + items.map { item -> String in
                switch item {
                case .quote(let id, let text, _): return "\(id),\"\(text.replacingAll("\"", with: "\"\""))\",A\r\n"
                case .bad: return "99,\"\",A\r\n"
                case .nul(let id): return "\(id),\"a\u{0}b\",A\r\n"
                }
            }.joined()
        }, firstPlace: "line 2", carriesControls: true, structured: false, archive: false)

    static let atom = ListFormatCase(
        name: "atom", format: ListFormat(kind: .atom), contentType: "application/atom+xml",
        render: atomFeed, firstPlace: "entry 1", carriesControls: false, structured: true, archive: true)

    static let rss = ListFormatCase(
        name: "rss", format: ListFormat(kind: .rss), contentType: "application/rss+xml",
        render: { items in
            #"<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Quotes</title><link>https://example.com/</link><description>q</description>"#
                + items.map { item -> String in
                    switch item {
                    case .quote(let id, let text, let published):
                        return "<item><guid isPermaLink=\"false\">q\(id)</guid><title>\(xml(text))</title><description>\(xml(text))</description>"
                            + "<author>a@example.com (A)</author>" + (published.flatMap(rfc822).map { "<pubDate>\($0)</pubDate>" } ?? "") + "</item>"
                    case .bad: return "<item><guid isPermaLink=\"false\">bad</guid><title></title><description></description></item>"
                    case .nul(let id): return "<item><guid>q\(id)</guid><description>a\u{0}b</description></item>"
                    }
                }.joined(separator: "\n") + "</channel></rss>"
        }, firstPlace: "entry 1", carriesControls: false, structured: true, archive: true)

    /// An Atom feed served as one, read by `format = auto`.
    static let auto = ListFormatCase(
        name: "auto (atom)", format: ListFormat(kind: .auto), contentType: "application/atom+xml; charset=utf-8",
        render: atomFeed, firstPlace: "entry 1", carriesControls: false, structured: true, archive: true)

    @Sendable static func atomFeed(_ items: [Item]) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Quotes</title><id>urn:quotes</id><updated>2026-12-01T00:00:00Z</updated>"#
            + items.map { item -> String in
                switch item {
                case .quote(let id, let text, let published):
                    return "<entry><id>urn:q:\(id)</id><title>\(xml(text))</title><content type=\"text\">\(xml(text))</content>"
                        + "<author><name>A</name></author>"
                        + (published.flatMap(UTCTimestamp.format).map { "<published>\($0)</published><updated>\($0)</updated>" } ?? "")
                        + "</entry>"
                case .bad: return "<entry><id>urn:q:bad</id><title></title><content type=\"text\"></content></entry>"
                case .nul(let id): return "<entry><id>urn:q:\(id)</id><content>a\u{0}b</content></entry>"
                }
            }.joined(separator: "\n") + "</feed>"
    }

    static func xml(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    /// RFC 822's date, as RSS writes it ("Tue, 01 Dec 2026 00:00:00 GMT").
    static func rfc822(_ seconds: Int) -> String? {
        guard let iso = UTCTimestamp.format(seconds) else { return nil }
        let parts = Array(iso.utf8)
        func text(_ range: Range<Int>) -> String { String(decoding: parts[range], as: UTF8.self) }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(text(8..<10)) \(months[Int(text(5..<7))! - 1]) \(text(0..<4)) \(text(11..<19)) GMT"
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

enum JSONText {
    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var builder = JSONObjectBuilder()
        builder.add("t", text)
        let object = builder.result
        // {"t":"…"} → "…"
        return String(object.dropFirst(5).dropLast())
    }
}
