import QuoteModels

/// A custom list read from a file (`quotectl import`), written as its bytes are read: every
/// record is checked and merged (`ListMerge`) inside one transaction, which commits only when the
/// whole file was a valid list and rolls back otherwise. One chunk and one record are held at a
/// time, so memory does not follow the file (reading it whole, then checking it whole, would
/// hold gigabytes for a big list: docs/benchmarks.md).
///
/// The records go through the pipeline a sync's go through (`ListIngest`), under the strict
/// policy: a sync leaves a bad record out and keeps the rest, an import refuses the whole file
/// when any record is bad or an id repeats, and names the first.
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
        let outcome: Outcome
        do {
            outcome = try merge(into: database, source: source, now: now, archive: archive, read: read)
        } catch {
            database.rollback()
            throw error
        }
        guard case .imported = outcome else {
            database.rollback()
            return outcome
        }
        try database.commit()
        return outcome
    }

    /// The list merged into the open transaction, or why it must not be committed.
    private static func merge(into database: Database, source: String, now: Int, archive: () -> Bool,
                              read: (_ record: (ListRecord) throws -> Void) throws -> Void) throws -> Outcome {
        let merge = try ListMerge(database: database, source: source, url: nil, now: now)
        var ingest = ListIngest(policy: .strict)
        try read { record in try ingest.take(record, into: merge) }
        switch ingest.verdict() {
        case .badRecords: return .refused(ingest.problems)
        case .noQuotes: return .empty
        case .accepted: return try .imported(ingest.finish(merge, archive: archive()), quotes: ingest.quotes)
        }
    }
}
