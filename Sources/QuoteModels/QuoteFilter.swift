import QuoteBase
/// What `quotectl random` (and `today`) may be narrowed by. Every field maps to an indexed
/// condition, and a pick probes the smallest numbering or span that holds the matches
/// (QuoteStore's `FilteredPick`): its cost follows the share of that space the matches fill,
/// not the store's size.
public struct QuoteFilter: Equatable, Sendable {
    public var source: String?
    public var author: String?
    public var category: String?
    public var lang: String?
    public var character: String?
    public var production: String?
    public var maxLength: Int?
    public var minLength: Int?

    public init(source: String? = nil, author: String? = nil, category: String? = nil, lang: String? = nil,
                character: String? = nil, production: String? = nil, maxLength: Int? = nil, minLength: Int? = nil) {
        self.minLength = minLength
        self.source = source
        self.author = author
        self.category = category
        self.lang = lang
        self.character = character
        self.production = production
        self.maxLength = maxLength
    }

    public var isEmpty: Bool { self == QuoteFilter() }
}
