import QuoteBase
import Testing
@testable import QuoteStore
@testable import QuoteModels
import TestSupport

/// The unfiltered draw: a random row id, past the store's gaps a random `pick`, uniform either way.
@Suite struct UnfilteredPickTests {
    let folder = TemporaryFolder()

    func store() throws -> Store {
        try makeStore(in: folder, quotes: QuotePickerTests.quotes)
    }

    func expectUniform(_ pick: UnfilteredPick, in store: Store, seed: UInt64) throws {
        try QuotePickerTests.expectUniform(QuoteFilter(), in: store, draws: 40_000, seed: seed) { generator in
            try pick.quote(using: &generator)
        }
    }

    /// Each way the draw can end, forced, on a store without gaps and on one whose ids are two
    /// thirds gaps with rows below 1 too (written by hand, as the sqlite3 shell may): by an id
    /// probe, by `pick` after probes that may miss, and by `pick` alone.
    @Test(arguments: [4, 1, 0], [false, true])
    func eachWayIsUniformWhateverTheGaps(probes: Int, gaps: Bool) throws {
        let store = try store()
        if gaps {
            try store.database.execute("DELETE FROM quotes WHERE id % 3 != 0")
            try store.database.execute("""
                INSERT INTO quotes (id, source, upstream_id, text, first_seen, last_seen, content_hash, length)
                VALUES (-5, 'custom.a', 'below', 'An id below one', 1, 1, 1, 15), (0, 'custom.a', 'zero', 'An id of zero', 1, 1, 2, 13)
                """)
        }
        try expectUniform(UnfilteredPick(database: store.database, probes: probes), in: store, seed: 3)
    }

    /// An empty store has nothing to draw: no span of ids, and no `pick` to fall back on.
    @Test func anEmptyStoreDrawsNothing() throws {
        let store = try store()
        try store.database.execute("DELETE FROM quotes")
        var generator = SeededGenerator(state: 5)
        #expect(try UnfilteredPick(database: store.database).quote(using: &generator) == nil)
        #expect(try UnfilteredPick(database: store.database, probes: 0).quote(using: &generator) == nil)
    }

    /// The statements kept for the next draw hold no read of the store between draws: a writer's
    /// checkpoint of everything written after a draw completes while the picker lives on.
    @Test func aKeptStatementHoldsNoSnapshotBetweenDraws() throws {
        let writer = try store()
        let reader = try Store(path: writer.path, access: .read)
        let picker = reader.quotes
        var generator = SeededGenerator(state: 9)
        for _ in 0..<3 { #expect(try picker.random(using: &generator) != nil) }
        try writer.database.execute("UPDATE quotes SET last_seen = last_seen + 1")
        #expect(writer.database.checkpointAndTruncate(patienceMilliseconds: 200), "a reader still holds the old WAL")
        #expect(try picker.random(using: &generator) != nil)
    }

    /// `inOneSnapshot` reads one store: a write committed meanwhile is not seen, and is once it ended.
    @Test func oneSnapshotSeesNoWriteCommittedMeanwhile() throws {
        let writer = try store()
        let reader = try Store(path: writer.path, access: .read)
        let picker = reader.quotes
        let before = try picker.count(QuoteFilter())
        let during = try picker.inOneSnapshot { () throws -> Int in
            _ = try picker.count(QuoteFilter())
            try writer.database.execute("DELETE FROM quotes WHERE source = 'custom.a'")
            return try picker.count(QuoteFilter())
        }
        #expect(during == before)
        #expect(!reader.database.isInTransaction)
        #expect(try picker.count(QuoteFilter()) == before - 20)
    }
}

/// What a probe reads decides the space: a row by its id one page, a number of a numbering two.
@Suite struct ProbeSpaceCostTests {
    let folder = TemporaryFolder()

    @Test func aProbeByIdCostsHalfAProbeOfANumbering() {
        #expect(FilteredPick.Space.ids(1...10).cost == 10)
        #expect(FilteredPick.Space.store(quotes: 10).cost == 20)
        #expect(FilteredPick.Space.source("custom.a", quotes: 10).cost == 20)
        #expect(FilteredPick.Space.store(quotes: Int.max).cost == Int.max)
        #expect(FilteredPick.Space.store(quotes: Int.max / 2 + 1).cost == Int.max)
        #expect(FilteredPick.Space.ids(Int.min...Int.max).cost == Int.max)
    }

    /// A condition whose matches span more ids than the store holds quotes, but fewer than twice
    /// as many, is probed by id: the first and the last row are of one category.
    @Test func aSpanUnderTwiceTheStoreIsProbedById() throws {
        let store = try makeStore(in: folder, quotes: QuotePickerTests.quotes)
        let database = store.database
        let ends = try database.prepare("SELECT min(id), max(id), count(*) FROM quotes")
        #expect(try ends.step())
        let (lowest, highest, quotes) = (ends.int(0), ends.int(1), ends.int(2))
        try database.execute("UPDATE quotes SET category = 'ends' WHERE id IN (?1, ?2)", [.integer(lowest), .integer(highest)])
        // Gaps: the span grows past the count.
        try database.execute("DELETE FROM quotes WHERE id % 4 = 1 AND id NOT IN (?1, ?2)", [.integer(lowest), .integer(highest)])
        let left = try #require(try database.scalarInt("SELECT count(*) FROM quotes"))
        #expect(left < quotes && highest - lowest + 1 < 2 * left)
        let pick = FilteredPick(database: database)
        #expect(try pick.space(for: QuoteFilter(category: "ends")) == .ids(lowest...highest))
    }

    /// With one source named, a condition whose matches span fewer ids than the source has
    /// quotes (by cost) is probed by id, and the draw stays uniform over the source's matches.
    @Test func aNamedSourcesConditionWithANarrowSpanIsProbedById() throws {
        let store = try makeStore(in: folder, quotes: QuotePickerTests.quotes)
        let database = store.database
        let first = try database.prepare("SELECT id FROM quotes WHERE source = 'custom.a' ORDER BY id LIMIT 4")
        var ids: [Int] = []
        while try first.step() { ids.append(first.int(0)) }
        try database.execute("UPDATE quotes SET category = 'pair' WHERE id IN (\(ids.map(String.init).joined(separator: ", ")))")
        // The row before the list's first, of another source, of that category too: in the span,
        // probed, never drawn (`expectUniform` counts only the filter's matches as reachable).
        let before = ids[0] - 1
        #expect(try database.scalarString("SELECT source FROM quotes WHERE id = ?1", [.integer(before)]) != "custom.a")
        try database.execute("UPDATE quotes SET category = 'pair' WHERE id = ?1", [.integer(before)])
        let filter = QuoteFilter(source: "custom.a", category: "pair")
        let pick = FilteredPick(database: database)
        let span = try #require(try pick.space(for: filter))
        #expect(span == .ids(before...ids[3]))
        #expect(span.cost < FilteredPick.Space.source("custom.a", quotes: 20).cost)
        try QuotePickerTests.expectUniform(filter, in: store, seed: 13) { generator in try pick.quote(filter, using: &generator) }
    }

    /// A filter of one exact condition begins with one probe and a count: a rare one ends there,
    /// after a single probe (not the eight of the rounds after), and stays uniform.
    @Test func aRareExactConditionEndsInTheOpeningCount() throws {
        let store = try makeStore(in: folder, quotes: QuotePickerTests.quotes)
        // Four quotes over the whole span of ids: a probe finds one about once in eighty.
        try store.database.execute("""
            UPDATE quotes SET author = 'Rare' WHERE id IN ((SELECT min(id) FROM quotes), (SELECT min(id) + 100 FROM quotes),
                                                          (SELECT min(id) + 200 FROM quotes), (SELECT max(id) FROM quotes))
            """)
        let filter = QuoteFilter(author: "rare")
        #expect(filter.isOneExactCondition())
        #expect(!QuoteFilter(author: "rare", lang: "en").isOneExactCondition())
        #expect(!QuoteFilter(source: "custom", author: "rare").isOneExactCondition())
        #expect(!QuoteFilter(author: "rare").isOneExactCondition(authorBySearch: true))
        #expect(!QuoteFilter(author: "rare", maxLength: 90).isOneExactCondition())
        let pick = FilteredPick(database: store.database)
        var generator = CountingGenerator(inner: SeededGenerator(state: 17))
        for _ in 0..<200 {
            generator.calls = 0
            #expect(try pick.quote(filter, using: &generator)?.author == "Rare")
            // The probe's draw, and the count's choice of a match (each may draw again, rarely).
            #expect(generator.calls <= 4, "\(generator.calls) draws: probes past the opening's one")
        }
        try QuotePickerTests.expectUniform(filter, in: store, seed: 19) { generator in try pick.quote(filter, using: &generator) }
    }
}

/// Counts the numbers drawn from the generator it wraps.
struct CountingGenerator: RandomNumberGenerator {
    var inner: SeededGenerator
    var calls = 0

    mutating func next() -> UInt64 {
        calls += 1
        return inner.next()
    }
}
