@testable import QuoteBase
import Testing

/// RFC 9110's three date forms (a Retry-After's), and what no server should send: refused, never a trap.
@Suite struct HTTPDateTests {
    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("sun, 06 nov 1994 08:49:37 gmt", 784_111_777),
        ("SUN, 06 NOV 1994 08:49:37 UTC", 784_111_777),
        ("Sun,06 Nov 1994 08:49:37 GMT", 784_111_777),
        ("Sunday, 06-Nov-1994 08:49:37 GMT", 784_111_777),
        ("Sun, 6 Nov 1994 8:49:37 GMT", 784_111_777),
        ("Sun, 06 Nov 1994 08:49:60 GMT", 784_111_800),
        ("Thursday, 06-Nov-69 08:49:37 GMT", 3_150_953_377),
        ("Friday, 06-Nov-70 08:49:37 GMT", 26_729_377),
        ("Thu, 29 Feb 2024 12:00:00 GMT", 1_709_208_000),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
        ("Fri, 31 Dec 9999 23:59:59 GMT", 253_402_300_799),
    ] as [(String, Int)])
    func theThreeForms(text: String, seconds: Int) {
        #expect(HTTPDate.parse(text) == seconds)
    }

    @Test(arguments: [
        "", "GMT", "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT junk", "Sun, 06 Nov 1994 08:49:37 EST",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 November 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
        "Thu, 29 Feb 2023 12:00:00 GMT", "Mon, 29 Feb 2100 12:00:00 GMT", "Wed, 31 Dec 1969 23:59:59 GMT",
        "Sat, 01 Jan 10000 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:60 GMT", "Sun, 00 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37:00 GMT", "Sun, 06 Nov 1994 08::37 GMT",
        "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 006 Nov 1994 08:49:37 GMT", "Sun, 06 Nov +994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:+9:37 GMT", "Sunday, 06-Nov-994 08:49:37 GMT", "Sunday, 06--Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-94-1 08:49:37 GMT", "Sun Nov  6 08:49:37 94", "Sun Nov  6 08:49:37 1994 GMT",
        "Sun, 06 Nov 9223372036854775807 08:49:37 GMT", "Sun, 06 Nov 1994 9223372036854775807:49:37 GMT",
        "Sun, ٠٦ Nov 1994 08:49:37 GMT", "Sun, 06 Nov １９９４ 08:49:37 GMT", "Mon, 99 Foo 2024 99:99:99 GMT",
        String(repeating: "Sun, 06 Nov 1994 ", count: 1_000),
    ])
    func notAnHTTPDate(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
