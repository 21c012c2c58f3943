import QuoteModels
import QuoteBase

/// A uniformly random quote of the whole store, reading one leaf of the table where it can.
///
/// `pick` numbers the quotes 1...n without a gap, but a draw by it reads its index's leaf and then
/// the row's: two pages, each a read and the faults of a fresh buffer in a new process. Row ids
/// have gaps only where rows were deleted (a list resynced smaller, a source forgotten), so a
/// random id from the lowest to the highest is a row most of the time, read by one seek of the
/// table. The draw probes ids a few times and draws by `pick` when every probe missed. A probe
/// that lands is uniform among the rows (each id of the span equally likely, kept only when it is
/// a row), and so is the draw by `pick`; whether the probes land depends on the store's gaps,
/// never on which row would be chosen, so the whole is uniform.
///
/// The statements are kept for the next draw of the same answer (`-n 10`) and reset after each,
/// so that none holds a read of the store open between draws.
final class UnfilteredPick {
    let database: Database
    /// Probes of the ids before the dense numbering: a store whose ids are half gaps still lands
    /// in one of them 15 times in 16, and one without gaps costs a single probe.
    let probes: Int
    // Each its own, not a dictionary by SQL: its storage costs a run-time conformance lookup on
    // every start.
    private var ends: Statement?, byID: Statement?, count: Statement?, byPick: Statement?

    init(database: Database, probes: Int = 4) {
        self.database = database
        self.probes = probes
    }

    func quote<G: RandomNumberGenerator>(using generator: inout G) throws(DatabaseError) -> Quote? {
        // One snapshot for the draw (or the caller's, for several): a sync committing between the
        // ends and the probe changes neither, and the read lock is taken once.
        let opened = !database.isInTransaction
        if opened { try database.execute("BEGIN DEFERRED") }
        defer { if opened { try? database.execute("COMMIT") } }
        // Each end a seek of the table's b-tree: two subqueries (`min(id), max(id)` in one would scan).
        let ends = try prepared(&ends, "SELECT (SELECT min(id) FROM quotes), (SELECT max(id) FROM quotes)")
        let span: (lowest: Int, size: Int)?
        if try ends.step(), let lowest = ends.optionalInt(0), let highest = ends.optionalInt(1), lowest <= highest {
            span = (lowest, FilteredPick.Space.ids(lowest...highest).size)
        } else {
            span = nil
        }
        ends.reset()
        // No span (an empty store, or ends the wrong way round in a damaged one): `pick` decides.
        let byID = try prepared(&byID, "SELECT \(Quote.columns) FROM quotes WHERE id = ?1")
        for _ in 0..<probes {
            guard let span, span.size < Int.max else { break }
            // `draw(below:)`, not `Int.random(in:using:)` or `next(upperBound:)`: called from
            // quotectl unspecialised, those build metadata at run time, on every start.
            if let quote = try row(byID, at: span.lowest + Int(generator.draw(below: UInt64(span.size)))) { return quote }
        }
        guard let quotes = try integer(prepared(&count, "SELECT max(pick) FROM quotes")), quotes > 0 else { return nil }
        let byPick = try prepared(&byPick, "SELECT \(Quote.columns) FROM quotes WHERE pick = ?1")
        return try row(byPick, at: 1 + Int(generator.draw(below: UInt64(quotes))))
    }

    private func prepared(_ kept: inout Statement?, _ sql: String) throws(DatabaseError) -> Statement {
        if let kept { return kept }
        let made = try database.prepare(sql)
        kept = made
        return made
    }

    private func integer(_ statement: Statement) throws(DatabaseError) -> Int? {
        defer { statement.reset() }
        return try statement.step() ? statement.optionalInt(0) : nil
    }

    private func row(_ statement: Statement, at value: Int) throws(DatabaseError) -> Quote? {
        defer { statement.reset() }
        try statement.bind(value, at: 1)
        return try statement.step() ? Quote(row: statement) : nil
    }
}
