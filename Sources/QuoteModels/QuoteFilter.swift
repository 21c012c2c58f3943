import QuoteBase
/// What `quotectl random` (and `today`) may be narrowed by. Every field maps to an
/// indexed condition, so the cost of a pick grows with the number of matches only.
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
