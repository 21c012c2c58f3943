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
}
