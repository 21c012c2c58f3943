import Testing
import TestSupport
@testable import QuoteFormats

@Suite(.computing) struct FeedTextTests {
    @Test(arguments: [
        ("<p>One</p><p>Two</p>", "One\nTwo"),
        ("a<br>b<br/>c<BR />d", "a\nb\nc\nd"),
        ("<ul><li>x</li><li>y</li></ul>", "x\ny"),
        ("  lots \n\t of   space  ", "lots of space"),
        ("<script>alert('<p>')</script>kept<style>p{}</style>", "kept"),
        ("<SCRIPT type=\"x\">hidden</Script>after", "after"),
        ("<!-- a <p> comment -->text", "text"),
        ("<a href=\"x>y\" title='>'>link</a>", "link"),
        ("&amp;&lt;&gt;&quot;&apos;&nbsp;x", "&<>\"' x"),
        ("&#8217;&#x2019;&#X2019;", "’’’"),
        ("&#0;&#xD800;&#x110000;", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("&#99999999999999999999; &unknown; & alone &amp", "&#99999999999999999999; &unknown; & alone &amp"),
        ("1 < 2 and 3 > 2", "1 < 2 and 3 > 2"),
        ("<p>unclosed <b", "unclosed"),
        ("<script>never closed", ""),
        ("", ""),
    ])
    func htmlBecomesText(html: String, text: String) {
        #expect(HTMLText.text(html) == text)
    }

    @Test(arguments: [
        ("2024-05-01T00:00:00Z", 1_714_521_600),
        ("2024-05-01t00:00:00z", 1_714_521_600),
        ("2024-05-01T02:00:00+02:00", 1_714_521_600),
        ("2024-04-30T19:00:00.999999999-05:00", 1_714_521_600),
        ("2024-05-01", 1_714_521_600),
        ("1970-01-01T00:00:00Z", 0),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("2000-02-29T00:00:00Z", 951_782_400),
    ] as [(String, Int)])
    func rfc3339Dates(text: String, seconds: Int) {
        #expect(FeedDate.rfc3339(text) == seconds)
    }

    @Test(arguments: ["", "2024", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01T00:00:00",
                      "2024-05-01T00:00:00+2:00", "2024-05-01T00:00:00+24:00", "2024-05-01T00:00:00.Z", "2024-05-01T00:00:00Zjunk",
                      "0000-01-01T00:00:00Z", "-2024-05-01T00:00:00Z", "9223372036854775807-01-01", String(repeating: "9", count: 1_000)])
    func unreadableRFC3339DatesAreNil(text: String) {
        #expect(FeedDate.rfc3339(text) == nil)
    }

    @Test(arguments: [
        ("Wed, 01 May 2024 00:00:00 GMT", 1_714_521_600),
        ("01 May 2024 00:00:00 GMT", 1_714_521_600),
        ("Wed, 1 May 2024 02:00:00 +0200", 1_714_521_600),
        ("Tue, 30 Apr 2024 20:00 EDT", 1_714_521_600),
        ("Tue, 30 Apr 24 17:00:00 PDT", 1_714_521_600),
        ("Wed, 01 May 2024 00:00:00", 1_714_521_600),
        ("Wed, 01 may 2024 00:00:00 UT", 1_714_521_600),
    ] as [(String, Int)])
    func rfc822Dates(text: String, seconds: Int) {
        #expect(FeedDate.rfc822(text) == seconds)
    }

    @Test(arguments: ["", "Wednesday", "Wed, 32 May 2024 00:00:00 GMT", "Wed, 01 Foo 2024 00:00:00 GMT", "Wed, 01 May 2024 0:0:0 GMT",
                      "Wed, 01 May 2024 00:00:00 XYZ", "Wed, 01 May 2024 00:00:00 +9999", "Wed, 01 May 9223372036854775807 00:00:00 GMT",
                      "Wed, 01 May -1 00:00:00 GMT", String(repeating: "1 ", count: 1_000)])
    func unreadableRFC822DatesAreNil(text: String) {
        #expect(FeedDate.rfc822(text) == nil)
    }
}
