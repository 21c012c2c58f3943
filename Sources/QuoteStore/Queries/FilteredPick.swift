import QuoteModels

/// A uniformly random quote among those a filter matches, at a cost that follows neither the
/// store's size nor the number of matches, only the share of a probe space they fill.
///
/// Random probes of the smallest space known to hold every match, kept when they match: the
/// source's own dense numbering when the filter names one source (a probe always matches when
/// nothing else narrows it), the span of row ids an exact condition's matches lie in (a list's
/// rows are neighbours), or the whole store's `pick`. When `probes` found none, the share is
/// small, so the matches are few: they are counted through the filter's index, up to
/// `countCap`, and the pick steps to a random one of them. Past that cap the share is at least
/// `countCap / space`, and further probes land within `space / countCap` tries on average. Each
/// way ends in a uniform choice among the matches, whatever led to it (the probes before it saw
/// nothing of which quote matched), so the whole is uniform.
struct FilteredPick {
    let database: Database
    /// Random probes before counting (each reads a page or two: docs/benchmarks.md).
    var probes = 8
    /// Matches counted at most: a count costs a step of the index per match.
    var countCap = 16_384
    /// Probes once the count passed its cap; then, very unlikely, every match counted.
    var followUpProbes = 4_096

    /// Where probes land: a random number of a dense numbering, or a random row id of a span.
    enum Space: Equatable {
        /// `pick` 1...quotes.
        case store(quotes: Int)
        /// `source_pick` 1...quotes of one source.
        case source(String, quotes: Int)
        /// The row ids from the lowest to the highest a condition's matches have.
        case ids(ClosedRange<Int>)

        var size: Int {
            switch self {
            case .store(let quotes), .source(_, let quotes): quotes
            case .ids(let span): span.count
            }
        }
    }

    func quote<G: RandomNumberGenerator>(_ filter: QuoteFilter, authorBySearch: Bool = false,
                                          using generator: inout G) throws(DatabaseError) -> Quote? {
        if filter.needsCaseFolding { try database.defineCaseFolding() }
        let clause = filter.whereClause(authorBySearch: authorBySearch)
        guard let space = try space(for: filter, authorBySearch: authorBySearch) else { return nil }
        if let quote = try probe(clause, in: space, times: probes, using: &generator) { return quote }
        if case .chosen(let quote) = try countedMatch(clause, cap: countCap, using: &generator) { return quote }
        if let quote = try probe(clause, in: space, times: followUpProbes, using: &generator) { return quote }
        guard case .chosen(let quote) = try countedMatch(clause, cap: nil, using: &generator) else { return nil }
        return quote
    }

    /// The smallest space that holds every match of `filter`; nil when it is empty (no match).
    func space(for filter: QuoteFilter, authorBySearch: Bool = false) throws(DatabaseError) -> Space? {
        // A character is one of Breaking Bad's.
        let source = filter.character != nil ? "breakingbad" : filter.source
        if let source, source != SourceKind.custom.rawValue {
            let quotes = try database.scalarInt("SELECT max(source_pick) FROM quotes WHERE source = ?1", [.text(source)]) ?? 0
            return quotes > 0 ? .source(source, quotes: quotes) : nil
        }
        guard let quotes = try database.scalarInt("SELECT max(pick) FROM quotes"), quotes > 0 else { return nil }
        var smallest = Space.store(quotes: quotes)
        for condition in filter.exactConditions(authorBySearch: authorBySearch) {
            // Two seeks of the condition's index (its entries end in the row id): min and max
            // are each answered from one end of the condition's entries.
            guard let lowest = try database.scalarInt("SELECT min(id) FROM quotes WHERE \(condition.sql)", [condition.value]),
                  let highest = try database.scalarInt("SELECT max(id) FROM quotes WHERE \(condition.sql)", [condition.value])
            else { return nil }
            let span = Space.ids(lowest...highest)
            if span.size < smallest.size { smallest = span }
        }
        return smallest
    }

    /// Up to `times` probes of `space`, the first that matches returned.
    private func probe<G: RandomNumberGenerator>(_ clause: (sql: String, values: [SQLValue]), in space: Space,
                                                  times: Int, using generator: inout G) throws(DatabaseError) -> Quote? {
        guard times > 0 else { return nil }
        let at = clause.values.count + 1
        let statement: Statement
        var values = clause.values + [.integer(0)]
        let first: Int
        switch space {
        case .store:
            statement = try database.prepare("""
                SELECT \(Quote.columns) FROM quotes INDEXED BY quotes_by_pick WHERE pick = ?\(at) AND (\(clause.sql))
                """)
            first = 1
        case .source(let source, _):
            statement = try database.prepare("""
                SELECT \(Quote.columns) FROM quotes INDEXED BY quotes_by_source_pick
                 WHERE source = ?\(at + 1) AND source_pick = ?\(at) AND (\(clause.sql))
                """)
            values.append(.text(source))
            first = 1
        case .ids(let span):
            statement = try database.prepare("SELECT \(Quote.columns) FROM quotes WHERE id = ?\(at) AND (\(clause.sql))")
            first = span.lowerBound
        }
        try statement.bind(values)
        for _ in 0..<times {
            statement.resetKeepingBindings()
            try statement.bind(first + Int(generator.next(upperBound: UInt64(space.size))), at: Int32(at))
            if try statement.step() { return Quote(row: statement) }
        }
        return nil
    }

    private enum Counted {
        /// More matches than the cap: none was chosen.
        case tooMany
        /// The match chosen, nil when nothing matches.
        case chosen(Quote?)
    }

    /// A random one of the matches, counted (up to `cap`, when given): the count and the step
    /// read one snapshot, so a sync committing between them changes neither.
    private func countedMatch<G: RandomNumberGenerator>(_ clause: (sql: String, values: [SQLValue]), cap: Int?,
                                                         using generator: inout G) throws(DatabaseError) -> Counted {
        let opened = !database.isInTransaction
        if opened { try database.execute("BEGIN DEFERRED") }
        defer { if opened { try? database.execute("COMMIT") } }
        let counting = cap.map { "SELECT count(*) FROM (SELECT 1 FROM quotes WHERE \(clause.sql) LIMIT \($0))" }
            ?? "SELECT count(*) FROM quotes WHERE \(clause.sql)"
        let matches = try database.scalarInt(counting, clause.values) ?? 0
        if let cap, matches >= cap { return .tooMany }
        guard matches > 0 else { return .chosen(nil) }
        // The ids stepped over in the filter's index, one row read.
        let statement = try database.prepare("""
            SELECT \(Quote.columns) FROM quotes
             WHERE id = (SELECT id FROM quotes WHERE \(clause.sql) LIMIT 1 OFFSET \(generator.next(upperBound: UInt64(matches))))
            """)
        try statement.bind(clause.values)
        return .chosen(try statement.step() ? Quote(row: statement) : nil)
    }
}
