import QuoteModels
import QuoteText

/// A quote a user keeps a word on (liked, hidden, or shown): its key and what is needed to show
/// it again without the store (text, author, language), with when it was kept, in Unix seconds.
public struct KeptQuote: Equatable, Sendable {
    public let key: QuoteKey
    public let text: String
    public let author: String?
    public let lang: String?
    public let time: Int

    public init(key: QuoteKey, text: String, author: String?, lang: String?, time: Int) {
        self.key = key
        self.text = text
        self.author = author
        self.lang = lang
        self.time = time
    }

    public init(_ quote: Quote, time: Int) {
        self.init(key: QuoteKey(quote), text: quote.text, author: quote.author, lang: quote.lang, time: time)
    }

    /// The quote as the commands print and export it (row id 0: it may be in no store).
    public var quote: Quote {
        Quote(source: key.source, upstreamID: key.upstreamID, text: text, author: author, lang: lang)
    }

    /// One line of a state file.
    public var jsonLine: String {
        var object = JSONObjectBuilder()
        object.add("source", key.source)
        object.add("id", key.upstreamID)
        object.add("text", text)
        object.add("author", author)
        object.add("lang", lang)
        object.add("time", time)
        return object.result
    }

    /// A line of a state file read back; nil when it is not one (the caller names the line).
    public init?(jsonLine line: Substring) {
        guard let value = try? JSONParser.parse(String(line)), let object = value.object else { return nil }
        self.init(object: object)
    }

    /// The members of a state file's line, parsed once (a shown line carries more of them).
    init?(object: JSONObject) {
        func member(_ name: String) -> JSONValue? { object.members.first { $0.key == name }?.value }
        func optional(_ name: String) -> String?? {
            guard let found = member(name), !found.isNull else { return .some(nil) }
            return found.string.map { .some($0) }
        }
        guard let source = member("source")?.string, !source.isEmpty, let upstreamID = member("id")?.string, !upstreamID.isEmpty,
              let text = member("text")?.string, !text.isEmpty, let time = member("time")?.int,
              let author = optional("author"), let lang = optional("lang") else { return nil }
        self.init(key: QuoteKey(source: source, upstreamID: upstreamID), text: text, author: author, lang: lang, time: time)
    }
}
