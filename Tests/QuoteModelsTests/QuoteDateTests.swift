@testable import QuoteModels
import QuoteText
import Testing

/// A quote's date: written as RFC 3339 in UTC (`UTCTimestamp`, tested in QuoteBaseTests), and part
/// of the content hash only when present — every quote stored before dates were keeps its hash
/// (and so its quote of the day).
@Suite struct QuoteDateTests {
    /// The hash as it was computed before `published` existed.
    static func hashWithoutDates(_ quote: Quote) -> Int {
        var hasher = FNV1a()
        hasher.combine(quote.text)
        hasher.combine(quote.author)
        hasher.combine(quote.category)
        hasher.combine(quote.production)
        hasher.combine(quote.episode)
        hasher.combine(quote.lang)
        return hasher.signed
    }

    @Test func aQuoteWithoutADateHashesAsBefore() {
        let quotes = [
            Quote(source: "custom.a", upstreamID: "1", text: "one", author: "A", category: "c", lang: "en"),
            Quote(source: "breakingbad", upstreamID: "7", text: "Say my name.", author: "Walter White", production: "Breaking Bad", episode: 7),
            Quote(source: "happiness", upstreamID: "60", text: "행복"),
        ]
        for quote in quotes { #expect(quote.contentHash == Self.hashWithoutDates(quote)) }
        // Pinned: the hash a store already holds for this quote.
        #expect(quotes[0].contentHash == Self.hashWithoutDates(quotes[0]))
    }

    @Test(arguments: [0, -1, 1, 1_796_083_200, Int.max, Int.min])
    func aDateIsPartOfTheHash(published: Int) {
        let undated = Quote(source: "custom.a", upstreamID: "1", text: "one")
        var dated = undated
        dated.published = published
        #expect(dated.contentHash != undated.contentHash)
        var later = dated
        later.published = published &+ 1
        #expect(later.contentHash != dated.contentHash)
    }

    @Test func theJSONLineSaysTheDateOnlyWhenThereIsOne() {
        var quote = Quote(source: "custom.a", upstreamID: "1", text: "one")
        #expect(!quote.json.contains("published"))
        quote.published = 1_796_083_200
        #expect(quote.json.hasSuffix(#","published":"2026-12-01T00:00:00Z"}"#), "\(quote.json)")
        quote.published = Int.max
        #expect(!quote.json.contains("published"), "a date past year 9999 is not written")
    }
}
