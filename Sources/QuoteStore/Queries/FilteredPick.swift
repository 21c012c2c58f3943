import QuoteModels

/// A uniformly random quote among those a filter matches, at a cost that follows neither the
/// store's size nor the number of matches, only the share of a probe space they fill.
///
/// Random probes of a space known to hold every match, kept when they match, of the spaces the
/// one whose probes read the fewest pages per match found (`Space.cost`): the source's own dense
/// numbering when the filter names one source (a probe always matches when nothing else narrows
/// it), the quotes of a range of lengths (numbered within each length, `length_pick`, and
/// counted per length in `quote_lengths`), the span of row ids an exact condition's matches lie
/// in (a list's rows are neighbours; a probe reads only the row), or the whole store's `pick`.
/// When the probes found none, the matches are counted, within a budget of SQLite steps and of
/// pages read about what the probes cost, and the pick steps to a random one of them; when the
/// budget ran out first, another round has more of both (twice as much as the one before, past
/// the opening of a filter of one exact condition), and so on. A rare filter ends in
/// its count, a common one in its probes, and one in between pays at most a few times the
/// cheaper of the two — however its rows lie and whichever index the count walks (the budget
/// bounds rows and pages read, not rows matched). Each way ends in a uniform choice among the
/// matches, and whether it ends there depends on the store and on where the probes that missed
/// fell (the pages they left in the cache), never on which match would be chosen (the step to
/// the chosen match is outside the budget), so the whole is uniform.
struct FilteredPick {
    let database: Database
    /// The first round of a filter that is one exact condition: one probe (a filter most quotes
    /// match ends there), then a count that a rare one ends in — up to about 1,300 matches of its
    /// index, three steps each, no row read — at about what a few probes cost (docs/benchmarks.md).
    /// Any other filter's count reads rows, and begins with `rounds`.
    var opening = Round(probes: 1, steps: 4_000, pages: 4)
    /// The second round, each after it twice the one before.
    var rounds = Round(probes: 8, steps: 10_000, pages: 16)

    /// Random probes (each reads a page or two), then a count within SQLite steps and pages read:
    /// a count whose condition needs each row reads a page per row, and 10,000 steps of it were
    /// 200 pages.
    struct Round: Equatable, Sendable {
        var probes: Int
        var steps: Int
        var pages: Int

        /// Twice as much of each, saturating rather than overflowing, and at least a step and a
        /// page (a budget of none would double to none, and never end).
        var next: Round { Round(probes: twice(probes), steps: twice(max(1, steps)), pages: twice(max(1, pages))) }
    }

    /// Where probes land: a random number of a dense numbering, or a random row id of a span.
    enum Space: Equatable {
        /// `pick` 1...quotes.
        case store(quotes: Int)
        /// `source_pick` 1...quotes of one source.
        case source(String, quotes: Int)
        /// The row ids from the lowest to the highest a condition's matches have.
        case ids(ClosedRange<Int>)
        /// The quotes of a range of lengths: `length_pick` 1...count of each length in it.
        case lengths(LengthCounts)

        var size: Int {
            switch self {
            case .store(let quotes), .source(_, let quotes): return quotes
            case .ids(let span):
                // A span too wide to count (ids near both ends of Int) is never the cheapest.
                let width = span.upperBound.subtractingReportingOverflow(span.lowerBound)
                return width.overflow || width.partialValue == Int.max ? Int.max : width.partialValue + 1
            case .lengths(let counts): return counts.quotes
            }
        }

        /// What probes of the space read for each match they find, in pages: its size (the
        /// matches are the same whichever space holds them) times a probe's reads. A row by its
        /// id is one leaf of the table; a number of a numbering is its index's leaf and then the
        /// row's, two (each a read and a fresh buffer's faults in a new process).
        var cost: Int {
            if case .ids = self { return size }
            return twice(size)
        }
    }

    /// The lengths of a range that have quotes, and how many quotes each has, as running totals:
    /// the n-th quote of the range (from 0) is the one of the first length whose total passes n.
    struct LengthCounts: Equatable {
        let lengths: [Int]
        let totals: [Int]
        var quotes: Int { totals.last ?? 0 }

        /// Nil when the counts cannot be true: one below 0, or a total past Int.
        init?(_ counts: [(length: Int, quotes: Int)]) {
            var totals: [Int] = [], sum = 0
            for count in counts {
                let added = sum.addingReportingOverflow(count.quotes)
                guard count.quotes >= 0, !added.overflow else { return nil }
                sum = added.partialValue
                totals.append(sum)
            }
            lengths = counts.map(\.length)
            self.totals = totals
        }

        /// The length and `length_pick` of the n-th quote, 0 <= n < quotes.
        func place(of n: Int) -> (length: Int, pick: Int) {
            var low = 0, high = totals.count - 1
            while low < high {
                let middle = (low + high) / 2
                if totals[middle] > n { high = middle } else { low = middle + 1 }
            }
            return (lengths[low], n - (low > 0 ? totals[low - 1] : 0) + 1)
        }
    }

    func quote<G: RandomNumberGenerator>(_ filter: QuoteFilter, authorBySearch: Bool = false,
                                          using generator: inout G) throws(DatabaseError) -> Quote? {
        if filter.needsCaseFolding { try database.defineCaseFolding() }
        let clause = filter.whereClause(authorBySearch: authorBySearch)
        // One snapshot for the whole pick: a sync committing meanwhile changes nothing it reads,
        // and each statement does not take and drop a lock of its own (a probe in a transaction
        // of its own costs a fifth more: docs/benchmarks.md).
        let opened = !database.isInTransaction
        if opened { try database.execute("BEGIN DEFERRED") }
        defer { if opened { try? database.execute("COMMIT") } }
        guard let space = try space(for: filter, authorBySearch: authorBySearch) else { return nil }
        let oneExact = filter.isOneExactCondition(authorBySearch: authorBySearch)
        var (round, after) = oneExact ? (opening, rounds) : (rounds, rounds.next)
        while true {
            if let quote = try probe(clause, in: space, times: round.probes, using: &generator) { return quote }
            if case .chosen(let quote) = try countedMatch(clause, steps: round.steps, pages: round.pages, using: &generator) {
                return quote
            }
            // The count reads at most every row once, so the rounds end; doubling keeps their sum
            // (the opening's, smaller, aside) within twice the last.
            (round, after) = (after, after.next)
        }
    }

    /// The space that holds every match of `filter` at the fewest pages read per match found
    /// (`Space.cost`); nil when it is empty (no match).
    func space(for filter: QuoteFilter, authorBySearch: Bool = false) throws(DatabaseError) -> Space? {
        // A character is one of Breaking Bad's.
        let source = filter.character != nil ? "breakingbad" : filter.source
        var lengths: Space?
        if filter.minLength != nil || filter.maxLength != nil {
            // Counts that cannot be true (a damaged store) leave the range out: other spaces hold
            // every match too.
            if let counts = try lengthCounts(from: filter.minLength ?? Int.min, to: filter.maxLength ?? Int.max) {
                guard counts.quotes > 0 else { return nil }
                lengths = .lengths(counts)
            }
        }
        // One source named ("custom" is every list): its own numbering, else the store's.
        let named = source == SourceKind.custom.rawValue ? nil : source
        // One statement: the source's count or the store's, and the lowest and highest id of each
        // exact condition's matches, each a seek of one end of the condition's index (its entries
        // end in the row id). Every match of a source's lies in a condition's span too.
        let conditions = filter.exactConditions(authorBySearch: authorBySearch)
        var values: [SQLValue] = named.map { [.text($0)] } ?? []
        // English on purpose: SQL
        var parts = [named == nil ? "(SELECT max(pick) FROM quotes)" : "(SELECT max(source_pick) FROM quotes WHERE source = ?1)"]
        for condition in conditions {
            values.append(condition.value)
            let sql = condition.sql.replacingPlaceholder(with: values.count)
            // English on purpose: SQL
            parts += ["(SELECT min(id) FROM quotes WHERE \(sql))", "(SELECT max(id) FROM quotes WHERE \(sql))"]
        }
        let statement = try database.prepare("SELECT " + parts.joined(separator: ", "))
        try statement.bind(values)
        guard try statement.step(), let quotes = statement.optionalInt(0), quotes > 0 else { return nil }
        var cheapest = named.map { Space.source($0, quotes: quotes) } ?? .store(quotes: quotes)
        if let lengths, lengths.cost < cheapest.cost { cheapest = lengths }
        for number in conditions.indices {
            guard let lowest = statement.optionalInt(Int32(1 + 2 * number)),
                  let highest = statement.optionalInt(Int32(2 + 2 * number)) else { return nil }
            // Both ends are seeks of an index: a damaged one can have them the wrong way round.
            guard lowest <= highest else { continue }
            let span = Space.ids(lowest...highest)
            if span.cost < cheapest.cost { cheapest = span }
        }
        return cheapest
    }

    /// The quotes of each length from `lowest` to `highest` (the counts `quote_lengths` keeps),
    /// nil when they cannot be true.
    private func lengthCounts(from lowest: Int, to highest: Int) throws(DatabaseError) -> LengthCounts? {
        let statement = try database.prepare("""
            SELECT length, quotes FROM quote_lengths WHERE length BETWEEN ?1 AND ?2 ORDER BY length
            """)
        try statement.bind([.integer(lowest), .integer(highest)])
        var counts: [(length: Int, quotes: Int)] = []
        while try statement.step() { counts.append((statement.int(0), statement.int(1))) }
        return LengthCounts(counts)
    }

    /// Up to `times` probes of `space`, the first that matches returned.
    private func probe<G: RandomNumberGenerator>(_ clause: (sql: String, values: [SQLValue]), in space: Space,
                                                  times: Int, using generator: inout G) throws(DatabaseError) -> Quote? {
        guard times > 0 else { return nil }
        // The place probed is bound at ?at (and the length at ?at + 1), after the clause's values.
        let at = Int32(clause.values.count + 1)
        let statement: Statement
        var values = clause.values + [.integer(0)]
        switch space {
        case .store:
            statement = try database.prepare("""
                SELECT \(Quote.columns) FROM quotes INDEXED BY quotes_by_pick WHERE pick = ?\(at) AND (\(clause.sql))
                """)
        case .source(let source, _):
            statement = try database.prepare("""
                SELECT \(Quote.columns) FROM quotes INDEXED BY quotes_by_source_pick
                 WHERE source = ?\(at + 1) AND source_pick = ?\(at) AND (\(clause.sql))
                """)
            values.append(.text(source))
        case .ids:
            statement = try database.prepare("SELECT \(Quote.columns) FROM quotes WHERE id = ?\(at) AND (\(clause.sql))")
        case .lengths:
            statement = try database.prepare("""
                SELECT \(Quote.columns) FROM quotes INDEXED BY quotes_by_length
                 WHERE length = ?\(at + 1) AND length_pick = ?\(at) AND (\(clause.sql))
                """)
            values.append(.integer(0))
        }
        try statement.bind(values)
        for _ in 0..<times {
            statement.resetKeepingBindings()
            let n = Int(generator.draw(below: UInt64(space.size)))
            switch space {
            case .store, .source: try statement.bind(1 + n, at: at)
            case .ids(let span): try statement.bind(span.lowerBound + n, at: at)
            case .lengths(let counts):
                let place = counts.place(of: n)
                try statement.bind(place.pick, at: at)
                try statement.bind(place.length, at: at + 1)
            }
            if try statement.step() { return Quote(row: statement) }
        }
        return nil
    }

    private enum Counted {
        /// The count ran out of steps: none was chosen.
        case unfinished
        /// The match chosen, nil when nothing matches.
        case chosen(Quote?)
    }

    /// A random one of the matches, counted within `steps` of SQLite's and `pages` read (the
    /// pick's snapshot: a sync committing between the count and the step changes neither).
    private func countedMatch<G: RandomNumberGenerator>(_ clause: (sql: String, values: [SQLValue]), steps: Int, pages: Int,
                                                         using generator: inout G) throws(DatabaseError) -> Counted {
        let counting = "SELECT count(*) FROM quotes WHERE \(clause.sql)"
        guard let matches = try database.withinSteps(steps, pages: pages, { () throws(DatabaseError) in
            try database.scalarInt(counting, clause.values) ?? 0
        }) else { return .unfinished }
        guard matches > 0 else { return .chosen(nil) }
        // The ids stepped over in the filter's index, one row read.
        let statement = try database.prepare("""
            SELECT \(Quote.columns) FROM quotes
             WHERE id = (SELECT id FROM quotes WHERE \(clause.sql) LIMIT 1 OFFSET \(generator.draw(below: UInt64(matches))))
            """)
        try statement.bind(clause.values)
        return .chosen(try statement.step() ? Quote(row: statement) : nil)
    }
}

/// Twice `value`, or `Int.max` past it: budgets and costs saturate rather than trap.
private func twice(_ value: Int) -> Int {
    let doubled = value.multipliedReportingOverflow(by: 2)
    return doubled.overflow ? Int.max : doubled.partialValue
}
