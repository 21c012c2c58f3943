import Testing
@testable import QuoteStore
@testable import QuoteModels

/// The one list pipeline (`ListIngest`) under both policies: `quotectl import`'s strict one, which
/// refuses the whole list for one bad record or repeated id, and a sync's lenient one, which
/// leaves the record out (its stored version kept) and writes the rest.
@Suite struct ListIngestTests {
    let folder = TemporaryFolder()
    static let source = "custom.ingest"
    static let policies: [ListIngest.Policy] = [.strict, .lenient]

    /// What one list did: the pipeline as it ended, its verdict, what the merge changed (when
    /// accepted) and what the shrink guard was told (quotes to remove, quotes stored), if asked.
    struct Ingested {
        var ingest: ListIngest
        var verdict: ListIngest.Verdict
        var counts: ChangeCounts?
        var guarded: [Int]?
    }

    struct Refused: Error {}

    static func quote(_ id: String, _ text: String, at place: Int, derived: Bool = false) -> ListRecord {
        .quote(ListEntry(Quote(source: Self.source, upstreamID: id, text: text), place: .record(place), idIsDerived: derived))
    }

    static func bad(at place: Int, id: String?) -> ListRecord {
        .problem(ListProblem(place: .record(place), upstreamID: id, reason: #""text" is empty"#))
    }

    func openStore(_ name: String = "quotes.db") throws -> Store {
        try Store(path: folder.file(name), access: .write, now: 1_000)
    }

    /// `records` through one pipeline in one transaction, as its callers run it (a sync hands a
    /// batch over at a time, an import one record): committed when accepted, else rolled back.
    func ingest(_ records: [ListRecord], _ policy: ListIngest.Policy, into store: Store, archive: Bool = false,
                acceptingEmpty: Bool = false, refusing: Bool = false) throws -> Ingested {
        let database = store.database
        try database.begin()
        do {
            let merge = try ListMerge(database: database, source: Self.source, url: nil, now: 2_000)
            var ingest = ListIngest(policy: policy)
            if policy == .lenient {
                try ingest.take(records, into: merge)
            } else {
                for record in records { try ingest.take(record, into: merge) }
            }
            var result = Ingested(ingest: ingest, verdict: ingest.verdict(acceptingEmpty: acceptingEmpty))
            guard result.verdict == .accepted else {
                database.rollback()
                return result
            }
            var guarded: [Int]?
            let counts = try ingest.finish(merge, archive: archive) { toRemove, stored in
                guarded = [toRemove, stored]
                if refusing { throw Refused() }
            }
            try database.commit()
            result.counts = counts
            result.guarded = guarded
            return result
        } catch {
            database.rollback()
            throw error
        }
    }

    /// The source's stored quotes: upstream id to text.
    func stored(_ store: Store) throws -> [String: String] {
        let statement = try store.database.prepare("SELECT upstream_id, text FROM quotes WHERE source = ?1")
        try statement.bind(Self.source, at: 1)
        var rows: [String: String] = [:]
        while try statement.step() { rows[statement.string(0)] = statement.string(1) }
        return rows
    }

    @Test func aRepeatedIDRefusesAStrictListAndIsLeftOutOfALenientOne() throws {
        let store = try openStore()
        let list = [Self.quote("1", "first", at: 1), Self.quote("1", "again", at: 2),
                    Self.quote("2", "second", at: 3), Self.quote("2", "again", at: 4)]
        let strict = try ingest(list, .strict, into: store)
        #expect(strict.verdict == .badRecords)
        // Merged on after the first problem: every repeat is counted, the first named.
        #expect(strict.ingest.problems.count == 2)
        #expect(strict.ingest.problems.first?.description == "record 2 (id 1): duplicate id")
        #expect(try stored(store).isEmpty)

        let lenient = try ingest(list, .lenient, into: store)
        #expect(lenient.verdict == .accepted)
        #expect(lenient.ingest.quotes == 2)
        #expect(lenient.ingest.problems.summary == " (record 2 (id 1): duplicate id; and 1 more)")
        #expect(lenient.counts == ChangeCounts(inserted: 2))
        #expect(try stored(store) == ["1": "first", "2": "second"])
    }

    @Test func aBadRecordRefusesAStrictListAndKeepsItsStoredVersionInALenientOne() throws {
        let store = try openStore()
        _ = try ingest([Self.quote("1", "one", at: 1), Self.quote("2", "two", at: 2), Self.quote("3", "three", at: 3)],
                       .lenient, into: store)
        let list = [Self.quote("1", "one", at: 1), Self.bad(at: 2, id: "2"), Self.quote("3", "three, edited", at: 3)]
        let strict = try ingest(list, .strict, into: store)
        #expect(strict.verdict == .badRecords)
        #expect(strict.ingest.problems.first?.description == #"record 2 (id 2): "text" is empty"#)
        #expect(try stored(store) == ["1": "one", "2": "two", "3": "three"])

        let lenient = try ingest(list, .lenient, into: store)
        #expect(lenient.verdict == .accepted)
        #expect(lenient.ingest.quotes == 2 && lenient.ingest.problems.count == 1)
        #expect(lenient.counts == ChangeCounts(updated: 1, unchanged: 1))
        #expect(lenient.guarded == [0, 3])
        #expect(try stored(store) == ["1": "one", "2": "two", "3": "three, edited"])

        // A bad record whose id could not be read could be any stored quote: nothing is removed.
        let unreadable = try ingest([Self.quote("1", "one", at: 1), Self.bad(at: 2, id: nil)], .lenient, into: store)
        #expect(unreadable.counts == ChangeCounts(unchanged: 1))
        #expect(try stored(store).count == 3)
    }

    @Test func aListWithNoQuoteIsWrittenOnlyWhenEmptinessIsAccepted() throws {
        let store = try openStore()
        for policy in Self.policies {
            #expect(try ingest([], policy, into: store).verdict == .noQuotes)
        }
        // Bad records only: strictly they refuse the list; leniently it has no quote, and says why.
        #expect(try ingest([Self.bad(at: 1, id: "1")], .strict, into: store).verdict == .badRecords)
        let onlyBad = try ingest([Self.bad(at: 1, id: "1")], .lenient, into: store)
        #expect(onlyBad.verdict == .noQuotes)
        #expect(onlyBad.ingest.problems.first?.upstreamID == "1")

        // Accepted empty (a sync's allow_shrink): the stored quotes go, the guard told so.
        _ = try ingest([Self.quote("1", "one", at: 1)], .lenient, into: store)
        let emptied = try ingest([], .lenient, into: store, acceptingEmpty: true)
        #expect(emptied.verdict == .accepted)
        #expect(emptied.counts == ChangeCounts(removed: 1))
        #expect(emptied.guarded == [1, 1])
        #expect(try stored(store).isEmpty)
    }

    @Test func aRepeatOfATextDerivedIDIsTheSameQuoteAgainUnderEitherPolicy() throws {
        for policy in Self.policies {
            let store = try openStore("\(policy).db")
            let list = [Self.quote("abc", "same", at: 1, derived: true), Self.quote("abc", "same", at: 2, derived: true),
                        Self.quote("def", "other", at: 3, derived: true)]
            let result = try ingest(list, policy, into: store)
            #expect(result.verdict == .accepted, "\(policy)")
            #expect(result.ingest.problems.count == 0, "\(policy)")
            #expect(result.ingest.quotes == 2, "\(policy)")
            #expect(try stored(store) == ["abc": "same", "def": "other"], "\(policy)")
        }
    }

    @Test func anArchiveRemovesNothingAndAsksNoGuardAWholeListRemovesWhatItLacks() throws {
        for policy in Self.policies {
            let store = try openStore("\(policy).db")
            _ = try ingest([Self.quote("1", "one", at: 1), Self.quote("2", "two", at: 2)], policy, into: store)
            let archived = try ingest([Self.quote("3", "three", at: 1)], policy, into: store, archive: true)
            #expect(archived.counts == ChangeCounts(inserted: 1), "\(policy)")
            #expect(archived.guarded == nil, "\(policy)")
            #expect(try stored(store).keys.sorted() == ["1", "2", "3"], "\(policy)")

            // The guard's refusal is passed on as it is, and the transaction keeps nothing.
            #expect(throws: Refused.self) { _ = try ingest([Self.quote("3", "three", at: 1)], policy, into: store, refusing: true) }
            #expect(try stored(store).keys.sorted() == ["1", "2", "3"], "\(policy)")

            // A refused list ends its process (a sync's child, an import): the next comes on a connection of its own.
            let whole = try ingest([Self.quote("3", "three", at: 1)], policy, into: try openStore("\(policy).db"))
            #expect(whole.counts == ChangeCounts(removed: 2, unchanged: 1), "\(policy)")
            #expect(whole.guarded == [2, 3], "\(policy)")
            #expect(try stored(store) == ["3": "three"], "\(policy)")
        }
    }
}
