@testable import QuoteModels
import QuoteText
import Testing

/// A quote's date: written as RFC 3339 in UTC, read back, and part of the content hash only when
/// present — every quote stored before dates were keeps its hash (and so its quote of the day).
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

    @Test(arguments: [
        (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (1_796_083_200, "2026-12-01T00:00:00Z"),
        (951_782_400, "2000-02-29T00:00:00Z"), (UTCTimestamp.earliest, "0001-01-01T00:00:00Z"),
        (UTCTimestamp.latest, "9999-12-31T23:59:59Z"),
    ])
    func timestampsRoundTrip(seconds: Int, text: String) {
        #expect(UTCTimestamp.format(seconds) == text)
        #expect(UTCTimestamp.parse(text) == seconds)
    }

    @Test(arguments: [
        "", "2026-12-01", "2026-12-01T00:00:00", "2026-12-01T00:00:00+00:00", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-12-01T24:00:00Z", "2026-12-01T00:60:00Z", "0000-01-01T00:00:00Z", "２026-12-01T00:00:00Z", "-026-12-01T00:00:00Z",
        "2026-12-01T00:00:00Zjunk",
    ])
    func notATimestamp(text: String) {
        #expect(UTCTimestamp.parse(text) == nil)
    }

    @Test(arguments: [UTCTimestamp.earliest - 1, UTCTimestamp.latest + 1, Int.max, Int.min])
    func outOfRangeIsNotWritten(seconds: Int) {
        #expect(UTCTimestamp.format(seconds) == nil)
    }
}
