@testable import QuoteBase
import Testing

/// A feed entry's dates: Atom's RFC 3339 (and RSS 1.0's dc:date) and RSS 2.0's RFC 822, within
/// what `UTCTimestamp` writes back; anything else is no date (the entry is kept without one).
@Suite struct FeedDateTests {
    @Test(arguments: [
        ("2024-05-01T00:00:00Z", 1_714_521_600),
        ("2024-05-01t00:00:00z", 1_714_521_600),
        ("2024-05-01T02:00:00+02:00", 1_714_521_600),
        ("2024-04-30T19:00:00.999999999-05:00", 1_714_521_600),
        ("2024-05-01", 1_714_521_600),
        ("2024-05-01 00:00:00Z", 1_714_521_600),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("2000-02-29T00:00:00Z", 951_782_400),
        ("2024-02-29", 1_709_164_800),
        ("2016-12-31T23:59:60Z", 1_483_228_800),
        ("2024-05-01T06:30:00+02:00", 1_714_537_800),
    ] as [(String, Int)])
    func rfc3339Dates(text: String, seconds: Int) {
        #expect(RFC3339Date.parse(text) == seconds)
    }

    @Test(arguments: ["", "2024", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T00:00:00",
                      "2024-05-01T00:00:00+2:00", "2024-05-01T00:00:00+24:00", "2024-05-01T00:00:00.Z", "2024-05-01T00:00:00Zjunk",
                      "0000-01-01T00:00:00Z", "-2024-05-01T00:00:00Z", "9223372036854775807-01-01", String(repeating: "9", count: 1_000),
                      "1900-02-29", "2100-02-29T00:00:00Z", "10000-01-01T00:00:00Z", "2024-05-01T00:00:00+0200", "2024-05-01junk",
                      "2024-05-01T00:00:00Z" + String(repeating: " ", count: 64), "２024-05-01T00:00:00Z"])
    func unreadableRFC3339DatesAreNil(text: String) {
        #expect(RFC3339Date.parse(text) == nil)
    }

    /// What `UTCTimestamp` could not write back is no date, however well formed.
    @Test(arguments: ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:60Z", "9999-12-31T23:00:00-02:00"])
    func aDateOutsideWhatCanBeWrittenBackIsNone(text: String) {
        #expect(RFC3339Date.parse(text) == nil)
    }

    @Test func datesAtTheEdgesStillRead() {
        #expect(RFC3339Date.parse("0001-01-01T00:00:00Z") == UTCTimestamp.earliest)
        #expect(RFC3339Date.parse("9999-12-31T23:59:59Z") == UTCTimestamp.latest)
        #expect(RFC3339Date.parse("0001-01-01T01:00:00+01:00") == UTCTimestamp.earliest)
        #expect(RFC822Date.parse("Mon, 01 Jan 0001 00:00:00 GMT") == UTCTimestamp.earliest)
        #expect(RFC822Date.parse("Fri, 31 Dec 9999 23:59:59 GMT") == UTCTimestamp.latest)
    }

    @Test(arguments: [
        ("Wed, 01 May 2024 00:00:00 GMT", 1_714_521_600),
        ("01 May 2024 00:00:00 GMT", 1_714_521_600),
        ("Wed, 1 May 2024 02:00:00 +0200", 1_714_521_600),
        ("Tue, 30 Apr 2024 20:00 EDT", 1_714_521_600),
        ("Tue, 30 Apr 24 17:00:00 PDT", 1_714_521_600),
        ("Wed, 01 May 2024 00:00:00", 1_714_521_600),
        ("Wed, 01 may 2024 00:00:00 UT", 1_714_521_600),
        ("Wed,\t01 May 2024 00:00:00 -0000", 1_714_521_600),
        ("1 January 2024 00:00:00 GMT", 1_704_067_200),
        ("Tue, 29 Feb 2000 00:00:00 GMT", 951_782_400),
        ("Fri, 01 Jan 49 00:00:00 GMT", 2_493_072_000),
        ("Sun, 01 Jan 50 00:00:00 GMT", -631_152_000),
    ] as [(String, Int)])
    func rfc822Dates(text: String, seconds: Int) {
        #expect(RFC822Date.parse(text) == seconds)
    }

    @Test(arguments: ["", "Wednesday", "Wed, 32 May 2024 00:00:00 GMT", "Wed, 01 Foo 2024 00:00:00 GMT", "Wed, 01 May 2024 0:0:0 GMT",
                      "Wed, 01 May 2024 00:00:00 XYZ", "Wed, 01 May 2024 00:00:00 +9999", "Wed, 01 May 9223372036854775807 00:00:00 GMT",
                      "Wed, 01 May -1 00:00:00 GMT", String(repeating: "1 ", count: 1_000),
                      "Mon, 29 Feb 1900 00:00:00 GMT", "Mon, 29 Feb 2100 00:00:00 GMT", "Sat, 01 Jan 10000 00:00:00 GMT",
                      "Sat, 01 Jan 0000 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 -0100", "Wed, 01 May 2024 00:00:00 GMT junk",
                      "Wed, +1 May 2024 00:00:00 GMT", "Wed, 01 May +024 00:00:00 GMT", "Wed, 01 May 2024 +1:00:00 GMT",
                      "Wed, 01 May 024 00:00:00 GMT", "Wed, 01 May 2024 00:00:00:00 GMT", "Wed, 001 May 2024 00:00:00 GMT",
                      "Wed, 01 May 2024 00:00:00 +02:00", "Wed, ٠١ May 2024 00:00:00 GMT"])
    func unreadableRFC822DatesAreNil(text: String) {
        #expect(RFC822Date.parse(text) == nil)
    }
}
