import QuoteModels
/// A custom list read from a file (`quotectl import`), written as its bytes are read: every
/// record is checked and merged (`ListMerge`) inside one transaction, which commits only when the
/// whole file was a valid list and rolls back otherwise. One chunk and one record are held at a
/// time, so memory does not follow the file (reading it whole, then checking it whole, would
/// hold gigabytes for a big list: docs/benchmarks.md).
///
/// An import is stricter than a sync: a sync leaves a bad record out and keeps the rest, an
/// import refuses the whole file when any record is bad or an id repeats, and names the first.
public enum ListImport {
    public enum Outcome: Sendable {
        /// Written: what changed, and how many quotes the list holds.
        case imported(ChangeCounts, quotes: Int)
        /// Nothing written: the records left out (the first named, all counted).
        case refused(CustomList.ProblemLog)
        /// Nothing written: no quotes in the list.
        case empty
    }

    /// Reads the chunks `read` hands over (it returns nil at the end) into `source`; the list is
    /// the whole of the source, so stored quotes it no longer holds are removed. Throws
    /// `CustomList.Failure` for a body that is not a JSON array, what `read` throws, or a
    /// `StoreError`; nothing is written then either.
    public static func run(into database: Database, source: String, now: Int,
                           read: () throws -> ArraySlice<UInt8>?) throws -> Outcome {
        try database.begin()
        let outcome: Outcome
        do {
            outcome = try merge(into: database, source: source, now: now, read: read)
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
    private static func merge(into database: Database, source: String, now: Int,
                              read: () throws -> ArraySlice<UInt8>?) throws -> Outcome {
        try QuoteWriter(database: database).ensureSource(source, now: now)
        let merge = try ListMerge(database: database, source: source, url: nil, now: now)
        var reader = CustomList.Reader(source: source)
        var problems = CustomList.ProblemLog()
        var quotes = 0
        while let chunk = try read() {
            try chunk.withUnsafeBytes { bytes in
                try reader.feed(bytes) { record in
                    switch record {
                    case .quote(let quote, let hash, let number):
                        // Merged even after a problem: the rest of the duplicates are counted too.
                        if try merge.add(quote, hash: hash) == .duplicate {
                            problems.add(CustomList.Problem(record: number, upstreamID: quote.upstreamID, reason: "duplicate id"))
                        } else {
                            quotes += 1
                        }
                    case .problem(let problem):
                        problems.add(problem)
                    }
                }
            }
        }
        try reader.finish()
        if problems.count > 0 { return .refused(problems) }
        if quotes == 0 { return .empty }
        let counts = try merge.finish(removeMissing: true)
        return .imported(counts, quotes: quotes)
    }
}
