import Testing
import TestSupport
@testable import QuoteModels
@testable import QuoteFormats

/// What a hostile or broken body does to `FeedReader`: a failure naming it, or a problem for one
/// entry, never a hang, a file read, or memory that grows with the input.
@Suite(.computing) struct HostileFeedTests {
    @Test func billionLaughsIsRefusedAtTheDTD() throws {
        var dtd = "<!DOCTYPE rss [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        let body = dtd + "]><rss><channel><item><guid>1</guid><description>&lol9;</description></item></channel></rss>"
        let failure = try #require(feedFailure(body))
        #expect(failure.reason == "not an Atom or RSS feed: a DTD is refused (entities could expand without bound)")
    }

    /// Refused as what they are: external entities, not entities that could expand.
    @Test func externalEntitiesAreNeverRead() throws {
        for body in [
            "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><rss><channel><item><description>&x;</description></item></channel></rss>",
            "<!DOCTYPE rss SYSTEM \"file:///etc/passwd\"><rss><channel><item><description>a</description></item></channel></rss>",
            "<!DOCTYPE rss [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><rss/>",
            "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"http://my.netscape.com/publish/formats/rss-0.91.dtd\"><rss/>",
            "<!DOCTYPE rss [<!ENTITY img SYSTEM \"http://example.com/a.gif\" NDATA gif>]><rss/>",
        ] {
            let failure = try #require(feedFailure(body))
            #expect(failure.reason == "not an Atom or RSS feed: external entities are refused (they could read local files or other addresses)",
                    "\(failure)")
            #expect(!failure.reason.contains("root:"))
        }
        // Without a DTD an entity is undefined: expat says so, and nothing is read.
        let failure = try #require(feedFailure("<rss><channel><item><description>&x;</description></item></channel></rss>"))
        #expect(failure.reason == "not an Atom or RSS feed: line 1: undefined entity")
    }

    /// A DTD that declares nothing is refused too, saying no feed needs one.
    @Test func aDTDWithoutEntitiesIsRefused() throws {
        for body in ["<!DOCTYPE rss><rss/>", "<!DOCTYPE rss [<!ELEMENT rss ANY>]><rss><channel><item><description>a</description></item></channel></rss>"] {
            let failure = try #require(feedFailure(body))
            #expect(failure.reason == "not an Atom or RSS feed: a DTD is refused (a feed needs none)", "\(failure)")
        }
    }

    @Test func deepNestingStopsAtTheCap() throws {
        let body = "<rss><channel><item><description>" + String(repeating: "<a>", count: 100_000)
        let failure = try #require(feedFailure(body))
        #expect(failure.reason == "not an Atom or RSS feed: elements are nested deeper than 64")
    }

    @Test func aHugeTextNodeIsOneEntrysProblem() throws {
        var body = Array("<rss><channel><item><guid>big</guid><description>".utf8)
        body += [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
        body += Array("</description></item><item><guid>small</guid><description>Fine.</description></item></channel></rss>".utf8)
        let read = try FeedRead(body, format: ListFormat(kind: .rss), chunk: 65536)
        #expect(read.problems == [ListProblem(place: .entry(1), upstreamID: "big", reason: "larger than 1 MiB")])
        #expect(read.quotes.map(\.text) == ["Fine."])
        // The id after the text still names the entry left out.
        var late = Array("<rss><channel><item><description>".utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: 2 << 20)
        late += Array("</description><guid>late</guid></item></channel></rss>".utf8)
        #expect(try FeedRead(late, format: ListFormat(kind: .rss), chunk: 4096).problems.map(\.upstreamID) == ["late"])
    }

    /// CDATA and long runs of text outside any entry are read as they come: not markup held.
    @Test func hugeCDATAAndTextAreNotMarkup() throws {
        var body = Array("<rss><channel><description>".utf8) + [UInt8](repeating: UInt8(ascii: "d"), count: 3 << 20)
        body += Array("</description><item><guid>c</guid><description><![CDATA[".utf8)
        body += [UInt8](repeating: UInt8(ascii: "c"), count: 3 << 20)
        body += Array("]]></description></item></channel></rss>".utf8)
        let read = try FeedRead(body, format: ListFormat(kind: .rss), chunk: 65536)
        #expect(read.problems == [ListProblem(place: .entry(1), upstreamID: "c", reason: "larger than 1 MiB")])
    }

    @Test func hugeMarkupIsRefused() throws {
        let attribute = "<rss><channel><item x=\"" + String(repeating: "a", count: 3 << 20) + "\"></item></channel></rss>"
        let comment = "<rss><!--" + String(repeating: "c", count: 3 << 20) + "--></rss>"
        for body in [attribute, comment] {
            do {
                _ = try FeedRead(body, format: ListFormat(kind: .rss), chunk: 65536)
                Issue.record("read a body with 3 MiB of markup")
            } catch let failure as ListFailure {
                #expect(failure.reason == "not an Atom or RSS feed: line 1: a tag, comment or other markup is longer than 2 MiB")
            }
        }
    }

    @Test(arguments: [
        ("", "not an Atom or RSS feed: line 1: no element found"),
        ("   \n", "not an Atom or RSS feed: line 2: no element found"),
        ("<rss><channel><item><guid>1</guid>", "not an Atom or RSS feed: line 1: no element found"),
        ("<rss><channel><item><guid>1</guid></item>\n</chanel></rss>", "not an Atom or RSS feed: line 2: mismatched tag"),
        ("[{\"id\": 1, \"text\": \"json\"}]", "not an Atom or RSS feed: line 1: syntax error"),
        ("<html><body>Not found</body></html>", "not an Atom or RSS feed: the document is <html>"),
        ("<feed xmlns=\"http://purl.org/atom/ns#\"/>", "not an Atom or RSS feed: the document is <feed> in namespace http://purl.org/atom/ns#"),
        ("<rss/>trailing", "not an Atom or RSS feed: line 1: junk after document element"),
        ("<rss>\u{0}</rss>", "not an Atom or RSS feed: line 1: not well-formed (invalid token)"),
        ("<rss><channel><item><description>&#0;</description></item></channel></rss>", "not an Atom or RSS feed: line 1: reference to invalid character number"),
    ])
    func aBodyThatIsNotAFeedFailsNamingWhy(body: String, reason: String) throws {
        let failure = try #require(feedFailure(body))
        #expect(failure.reason == reason)
    }

    @Test func invalidUTF8IsAFailureNotAGuess() throws {
        let body = Array("<rss><channel><item><description>".utf8) + [0xC3, 0x28] + Array("</description></item></channel></rss>".utf8)
        #expect(throws: ListFailure.self) { _ = try FeedRead(body, format: ListFormat(kind: .rss)) }
    }

    @Test func entriesBeforeABrokenEndAreHandedOver() throws {
        var taken: [ListRecord] = []
        var reader = try FeedReader(source: "custom.feed", format: ListFormat(kind: .rss))
        let body = Array("<rss><channel><item><guid>1</guid><title>One</title></item><item><guid>2</guid>".utf8)
        try body.withUnsafeBytes { try reader.feed($0) { taken.append($0) } }
        #expect(taken.count == 1)
        #expect(throws: ListFailure.self) { try reader.finish { taken.append($0) } }
    }

    /// Records leave the reader one entry at a time, even from one large chunk.
    @Test func aManyEntryFeedStreams() throws {
        var body = "<rss><channel>"
        for n in 1...20_000 { body += "<item><guid>\(n)</guid><title>Quote \(n)</title></item>" }
        body += "</channel></rss>"
        var count = 0, last = 0
        var reader = try FeedReader(source: "custom.feed", format: ListFormat(kind: .rss))
        try Array(body.utf8).withUnsafeBytes { bytes in
            try reader.feed(bytes) { record in
                guard case .quote(let entry) = record else { return }
                count += 1
                last = Int(entry.quote.upstreamID) ?? 0
            }
        }
        try reader.finish { _ in }
        #expect(count == 20_000 && last == 20_000)
    }

    @Test(arguments: [
        ("<rss><channel><item><guid>" + String(repeating: "g", count: 257) + "</guid><title>T</title></item></channel></rss>",
         "the id is longer than 256 characters"),
        ("<rss><channel><item><guid>1</guid><title>" + String(repeating: "t", count: 10_001) + "</title></item></channel></rss>",
         "\"title\" is longer than 10000 characters"),
        ("<rss><channel><item><guid>1</guid></item></channel></rss>", "missing \"title\""),
        ("<rss><channel><item><guid>1</guid><description><![CDATA[<p> </p><script>x</script>]]></description></item></channel></rss>",
         "\"description\" is empty"),
    ])
    func aBadEntryIsAProblemNamingTheField(body: String, reason: String) throws {
        let read = try FeedRead(body, format: ListFormat(kind: .rss))
        #expect(read.quotes.isEmpty)
        #expect(read.problems.first?.reason == reason)
        #expect(read.problems.first?.place == .entry(1))
    }
}
