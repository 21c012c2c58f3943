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
    /// `CustomList.Failure` for a body that is not a JSON array, or what `read` or the store throw;
    /// nothing is written then either.
    public static func run(into database: Database, source: String, now: Int,
                           read: () throws -> ArraySlice<UInt8>?) throws -> Outcome {
        do {
            return try database.transaction {
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
                if problems.count > 0 { throw Refusal(outcome: .refused(problems)) }
                if quotes == 0 { throw Refusal(outcome: .empty) }
                let counts = try merge.finish(removeMissing: true) { _, _ in }
                return .imported(counts, quotes: quotes)
            }
        } catch let refusal as Refusal {
            return refusal.outcome
        }
    }

    /// Leaves the transaction (rolling it back) with what to say.
    private struct Refusal: Error {
        let outcome: Outcome
    }
}
