import QuoteModels

/// A custom list read from a file (`quotectl import`), written as its bytes are read: every
/// record goes through the list pipeline a sync's go through (`ListIngest`), strictly — any bad
/// record or repeated id refuses the whole file — inside one transaction, which commits only when
/// the whole file was a valid list. One chunk and one record are held at a time, so memory does
/// not follow the file (reading it whole, then checking it whole, would hold gigabytes for a big
/// list: docs/benchmarks.md).
public enum ListImport {
    public enum Outcome: Sendable {
        /// Written: what changed, and how many quotes the list holds.
        case imported(ChangeCounts, quotes: Int)
        /// Nothing written: the records left out (the first named, all counted).
        case refused(ListProblemLog)
        /// Nothing written: no quotes in the list.
        case empty
    }

    /// Merges the records `read` hands to its argument (a list reader, fed the file's chunks)
    /// into `source`; unless `archive` (asked once the list is read: `auto` knows only then
    /// whether it read a feed), the list is the whole of the source, so stored quotes it
    /// no longer holds are removed. Throws what `read` throws (a `ListFailure` for a body that
    /// is not a list, a file's error) or a `StoreError`; nothing is written then either.
    public static func run(into store: Store, source: String, now: Int, archive: @autoclosure () -> Bool = false,
                           read: (_ record: (ListRecord) throws -> Void) throws -> Void) throws -> Outcome {
        let database = store.database
        try database.begin()
        do {
            let merge = try ListMerge(database: database, source: source, url: nil, now: now)
            var ingest = ListIngest(policy: .strict)
            try read { record in try ingest.take(record, into: merge) }
            let refusal: Outcome
            switch ingest.verdict() {
            case .badRecords: refusal = .refused(ingest.problems)
            case .noQuotes: refusal = .empty
            case .accepted:
                let counts = try ingest.finish(merge, archive: archive())
                try database.commit()
                return .imported(counts, quotes: ingest.quotes)
            }
            database.rollback()
            return refusal
        } catch {
            database.rollback()
            throw error
        }
    }
}
