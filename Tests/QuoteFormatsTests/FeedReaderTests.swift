import Testing
@testable import QuoteModels
@testable import QuoteFormats
import TestSupport

/// A feed read through `FeedReader`, whole or in chunks: its quotes, its problems, and the
/// format it was found to be.
struct FeedRead {
    var quotes: [Quote] = []
    var places: [ListPlace] = []
    var derived: [Bool] = []
    var problems: [ListProblem] = []
    var format: ListFormat.Kind?

    init(_ bytes: [UInt8], format: ListFormat = ListFormat(kind: .atom), chunk: Int? = nil) throws {
        var reader = try #require(try ListReaders.reader(for: format, source: "custom.feed") as? FeedReader)
        var read = FeedRead()
        let take = { (record: ListRecord) in
            switch record {
            case .quote(let entry):
                read.quotes.append(entry.quote)
                read.places.append(entry.place)
                read.derived.append(entry.idIsDerived)
            case .problem(let problem): read.problems.append(problem)
            }
        }
        let size = max(1, chunk ?? bytes.count)
        var start = 0
        repeat {
            let end = min(bytes.count, start + size)
            try bytes[start..<end].withUnsafeBytes { try reader.feed($0, take) }
            start = end
        } while start < bytes.count
        try reader.finish(take)
        read.format = reader.format
        self = read
    }

    private init() {}

    init(_ text: String, format: ListFormat = ListFormat(kind: .atom), chunk: Int? = nil) throws {
        try self.init(Array(text.utf8), format: format, chunk: chunk)
    }
}

/// The failure a body ends in.
func feedFailure(_ text: String, format: ListFormat = ListFormat(kind: .rss)) -> ListFailure? {
    do {
        _ = try FeedRead(text, format: format)
        return nil
    } catch let failure as ListFailure {
        return failure
    } catch {
        return ListFailure("unexpected \(error)")
    }
}

@Suite(.computing) struct FeedReaderTests {
    static let wikiquote: ListFormat = {
        var format = ListFormat(kind: .atom)
        format.authorPattern = "~ *([^~]*[^~ ]) *~"
        return format
    }()

    static let qotdTexts = [
        "Injustice anywhere is a threat to justice everywhere.",
        "Tyger Tyger, burning bright,\nIn the forests of the night;",
        "It’s not that I’m so smart, it’s just that I stay with problems longer.",
    ]
    static let qotdAuthors = ["Martin Luther King, Jr.", "William Blake", "Albert Einstein"]
    static let qotdDates = [1_714_521_600, 1_714_608_000, 1_714_694_400]

    @Test(arguments: ["wikiquote-qotd.atom", "wikiquote-qotd.rss"])
    func readsWikiquotesQuoteOfTheDay(file: String) throws {
        var format = Self.wikiquote
        format.kind = file.hasSuffix("rss") ? .rss : .atom
        let read = try FeedRead(Fixtures.text("feeds/" + file), format: format)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.format == format.kind)
        #expect(read.quotes.map(\.text) == Self.qotdTexts)
        #expect(read.quotes.map(\.author) == Self.qotdAuthors)
        #expect(read.quotes.map(\.published) == Self.qotdDates)
        #expect(read.quotes[0].upstreamID == "https://en.wikiquote.org/wiki/Special:FeedItem/qotd/20240501000000/en")
        #expect(read.quotes.allSatisfy { $0.source == "custom.feed" && $0.lang == "en" })
        #expect(read.places == [.entry(1), .entry(2), .entry(3)])
        #expect(read.derived == [false, false, false])
    }

    @Test func withoutAPatternTheAttributionStaysInTheText() throws {
        let read = try FeedRead(Fixtures.text("feeds/wikiquote-qotd.atom"))
        #expect(read.quotes.map(\.author) == [nil, nil, nil])
        #expect(read.quotes[0].text == "Injustice anywhere is a threat to justice everywhere.\n~ Martin Luther King, Jr. ~")
    }

    @Test func readsABlogsAtomFeed() throws {
        let read = try FeedRead(Fixtures.text("feeds/blog.atom"))
        #expect(read.format == .atom)
        #expect(read.quotes.map(\.text) == ["Adopt the pace of nature:\nher secret is patience.", "Well begun is half done.",
                                            "Only a title, but a quote nonetheless"])
        #expect(read.quotes.map(\.author) == ["Ralph Waldo Emerson", "Ada Marginal", "Ada Marginal"])
        #expect(read.quotes.map(\.upstreamID) == ["tag:marginalia.example,2024:patience", "tag:marginalia.example,2024:notes",
                                                  "tag:marginalia.example,2024:title-only"])
        // published before updated; a leap second is the next second; an unreadable date is none.
        #expect(read.quotes.map(\.published) == [1_717_312_500, 1_717_200_000, nil])
        #expect(read.quotes[0].category == "Patience")
        let problem = try #require(read.problems.first)
        #expect(read.problems.count == 1)
        #expect(problem.description == "entry 4 (id tag:marginalia.example,2024:empty): \"title\" is empty")
    }

    @Test func readsABlogsRSSFeed() throws {
        let read = try FeedRead(Fixtures.text("feeds/blog.rss"), format: ListFormat(kind: .rss))
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.format == .rss)
        #expect(read.quotes.map(\.text) == ["A journey of a thousand miles begins with a single step.",
                                            "Luck is what happens when preparation meets opportunity.",
                                            "No man ever steps in the same river twice.",
                                            "행복은 내면에서 오지 않고 사이에서 온다. 🙂 Ünïcödé"])
        #expect(read.quotes.map(\.author) == ["Lao Tzu", "Seneca", "Heraclitus", "Jonathan Haidt"])
        #expect(read.quotes.map(\.published) == [1_717_392_600, 1_717_502_400, nil, nil])
        #expect(read.quotes[3].lang == "ko")
        #expect(read.quotes.map(\.upstreamID).prefix(2) == ["https://commonplace.example/2024/06/03", "https://commonplace.example/2024/06/04"])
        #expect(read.quotes[0].category == "journeys")
        // No guid, no link: the id is derived from the text, as a text file's are.
        #expect(read.derived == [false, false, true, false])
        #expect(read.quotes[2].upstreamID == String(FNV1a.hash("No man ever steps in the same river twice.").value, radix: 16))
    }

    @Test func readsRSS1() throws {
        let rdf = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <channel rdf:about="https://x.example/"><title>X</title><items/></channel>
              <item rdf:about="https://x.example/1"><title>T</title><description>Know thyself.</description>
                <dc:creator>Socrates</dc:creator><dc:date>2024-01-02</dc:date></item>
            </rdf:RDF>
            """
        let read = try FeedRead(rdf, format: ListFormat(kind: .rss))
        #expect(read.format == .rss)
        #expect(read.quotes.map(\.text) == ["Know thyself."])
        #expect(read.quotes.map(\.upstreamID) == ["https://x.example/1"])
        #expect(read.quotes.map(\.author) == ["Socrates"])
        #expect(read.quotes.map(\.published) == [1_704_153_600])
    }

    /// A list configured `rss` whose body is Atom is read as Atom, and says so.
    @Test func aFeedIsReadAsTheKindItIs() throws {
        let read = try FeedRead(Fixtures.text("feeds/blog.atom"), format: ListFormat(kind: .rss))
        #expect(read.format == .atom)
        #expect(read.quotes.count == 3)
    }

    @Test(arguments: ["wikiquote-qotd.atom", "wikiquote-qotd.rss", "blog.atom", "blog.rss"])
    func everyChunkSizeGivesTheSameQuotes(file: String) throws {
        var format = Self.wikiquote
        format.kind = file.hasSuffix("rss") ? .rss : .atom
        // Chunks of 2 to 4 bytes end inside blog.rss's Korean and emoji.
        let bytes = Array(Fixtures.text("feeds/" + file).utf8)
        let whole = try FeedRead(bytes, format: format)
        for size in 1...64 {
            let read = try FeedRead(bytes, format: format, chunk: size)
            #expect(read.quotes == whole.quotes, "chunks of \(size)")
            #expect(read.problems == whole.problems, "chunks of \(size)")
        }
    }

    @Test func anAuthorPatternMustBeARegularExpressionWithAGroup() {
        for (pattern, reason) in [("~ (", "not a POSIX extended regular expression"), ("~ .* ~", "has no group")] {
            var format = ListFormat(kind: .rss)
            format.authorPattern = pattern
            #expect(throws: ListFailure.self) { _ = try ListReaders.reader(for: format, source: "custom.feed") }
            do {
                _ = try ListReaders.reader(for: format, source: "custom.feed")
            } catch {
                #expect(error.reason.contains(reason), "\(error)")
            }
        }
    }

    @Test func aFeedAuthorWinsOverThePattern() throws {
        var format = Self.wikiquote
        format.kind = .rss
        let feed = "<rss><channel><item><guid>1</guid><description>Hi ~ Someone ~</description><author>Named</author></item></channel></rss>"
        let read = try FeedRead(feed, format: format)
        #expect(read.quotes.map(\.author) == ["Named"])
        #expect(read.quotes.map(\.text) == ["Hi ~ Someone ~"])
    }
}

extension FeedReaderTests {
    /// An extension element that happens to be called `item` inside an Atom feed is no entry.
    @Test func onlyTheFeedsOwnKindOfEntryCounts() throws {
        let atom = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><item><title>no</title></item>"
            + "<entry><id>1</id><title>yes</title></entry></feed>"
        #expect(try FeedRead(atom).quotes.map(\.text) == ["yes"])
        let rss = "<rss><channel><entry xmlns=\"http://www.w3.org/2005/Atom\"><title>no</title></entry>"
            + "<item><guid>1</guid><title>yes</title></item></channel></rss>"
        #expect(try FeedRead(rss, format: ListFormat(kind: .rss)).quotes.map(\.text) == ["yes"])
    }
}
