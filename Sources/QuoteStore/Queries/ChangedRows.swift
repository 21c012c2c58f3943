import QuoteModels

/// Writes the stored rows a merge found changed, doing itself what the quotes table's update
/// triggers do (the full-text index, the length numbering), in statements that each write one
/// row. A statement that fires a trigger writing the full-text index needs a statement journal
/// (past 64 KiB a file in /var/tmp) and opens a savepoint, at which FTS5 writes its pending
/// terms out as a segment: an UPDATE per changed row through the triggers wrote ~250 KiB of
/// journal and one segment per row (docs/benchmarks.md). Without a trigger, a one-row UPDATE by
/// row id needs neither, and FTS5 flushes its pending terms by size.
///
/// The two triggers are dropped at the first changed row and created again by `finish`, inside
/// the caller's transaction: `finish` must run before the commit (`ListMerge` runs it first in
/// ending a merge), and a failed merge's rollback restores them as well. A `write` that throws
/// may leave its row half-written: the caller rolls the transaction back, as every merge's does.
final class ChangedRows {
    private let database: Database
    private let now: Int
    /// What was dropped, to create again; whether each trigger was there to mirror.
    private let recreate: [String]
    private let fullText: Bool
    private let lengths: Bool
    private let previous: Statement
    private let update: Statement
    private let fullTextDelete: Statement
    private let fullTextInsert: Statement
    private let lengthCount: Statement
    private let takeOverNumber: Statement
    private let lengthDown: Statement
    private let lengthUp: Statement
    private let lengthNew: Statement

    init(database: Database, now: Int) throws(DatabaseError) {
        self.database = database
        self.now = now
        let triggers = try database.prepare("""
            SELECT name, sql FROM sqlite_master
             WHERE type = 'trigger' AND tbl_name = 'quotes' AND name IN ('quotes_fts_on_update', 'quotes_length_on_update')
            """)
        var found: [(name: String, sql: String)] = []
        while try triggers.step() { found.append((triggers.string(0), triggers.string(1))) }
        for trigger in found { try database.execute("DROP TRIGGER \"\(trigger.name)\"") }
        recreate = found.map(\.sql)
        fullText = found.contains { $0.name == "quotes_fts_on_update" }
        lengths = found.contains { $0.name == "quotes_length_on_update" }
        previous = try database.prepare("SELECT text, author, length, length_pick FROM quotes WHERE id = ?1")
        update = try database.prepare("""
            UPDATE quotes SET text = ?3, author = ?4, category = ?5, production = ?6, episode = ?7, lang = ?8,
                              last_seen = ?9, content_hash = ?10, length = ?11, length_pick = ?12, published = ?13
             WHERE id = ?1
            """)
        fullTextDelete = try database.prepare("INSERT INTO quotes_fts (quotes_fts, rowid, text, author) VALUES ('delete', ?1, ?2, ?3)")
        fullTextInsert = try database.prepare("INSERT INTO quotes_fts (rowid, text, author) VALUES (?1, ?2, ?3)")
        lengthCount = try database.prepare("SELECT quotes FROM quote_lengths WHERE length = ?1")
        // As the trigger does: the last quote of the old length takes over the number it leaves.
        takeOverNumber = try database.prepare("UPDATE quotes SET length_pick = ?3 WHERE length = ?1 AND length_pick = ?2")
        lengthDown = try database.prepare("UPDATE quote_lengths SET quotes = quotes - 1 WHERE length = ?1")
        lengthUp = try database.prepare("UPDATE quote_lengths SET quotes = quotes + 1 WHERE length = ?1")
        lengthNew = try database.prepare("INSERT INTO quote_lengths (length, quotes) VALUES (?1, 1)")
    }

    /// Writes `quote` (content hash `hash`) over the stored row `id`.
    func write(id: Int, _ quote: Quote, hash: Int) throws(DatabaseError) {
        previous.reset()
        try previous.bind(id, at: 1)
        guard try previous.step() else { return }
        // The full-text delete names the old text and author exactly as they were indexed (a copy
        // of the stored values, whatever their bytes), as the trigger's OLD values did.
        fullTextDelete.reset()
        try fullTextDelete.bind(id, at: 1)
        try fullTextDelete.bind(valueOf: previous, column: 0, at: 2)
        try fullTextDelete.bind(valueOf: previous, column: 1, at: 3)
        let (oldLength, oldNumber) = (previous.optionalInt(2), previous.optionalInt(3))
        previous.reset()
        let moves = lengths && oldLength != quote.length
        let number = moves ? try ListMerge.next(after: count(of: quote.length) ?? 0, "length_pick") : oldNumber
        update.reset()
        try update.bind(id, at: 1)
        try ListMerge.bindFields(of: quote, hash: hash, now: now, to: update)
        try update.bind(number, at: 12)
        try update.step()
        if moves { try move(from: oldLength, number: oldNumber, to: quote.length) }
        // The trigger re-indexed every update of the text or the author, changed or not.
        if fullText {
            try fullTextDelete.step()
            fullTextInsert.reset()
            try fullTextInsert.bind(id, at: 1)
            try fullTextInsert.bind(quote.text, at: 2)
            try fullTextInsert.bind(quote.author, at: 3)
            try fullTextInsert.step()
        }
    }

    /// A quote that left `old` for `new`: the numbering of `old` stays dense (its last quote takes
    /// over the number left) and its count drops; `new` counts one more.
    private func move(from old: Int?, number: Int?, to new: Int) throws(DatabaseError) {
        if let old {
            if let last = try count(of: old), let number, number < last {
                takeOverNumber.reset()
                try takeOverNumber.bind(old, at: 1)
                try takeOverNumber.bind(last, at: 2)
                try takeOverNumber.bind(number, at: 3)
                try takeOverNumber.step()
            }
            lengthDown.reset()
            try lengthDown.bind(old, at: 1)
            try lengthDown.step()
        }
        lengthUp.reset()
        try lengthUp.bind(new, at: 1)
        try lengthUp.step()
        if database.changes == 0 {
            lengthNew.reset()
            try lengthNew.bind(new, at: 1)
            try lengthNew.step()
        }
    }

    private func count(of length: Int) throws(DatabaseError) -> Int? {
        lengthCount.reset()
        try lengthCount.bind(length, at: 1)
        defer { lengthCount.reset() }
        return try lengthCount.step() ? lengthCount.optionalInt(0) : nil
    }

    /// Creates the dropped triggers again: every later write goes through them as before.
    func finish() throws(DatabaseError) {
        for sql in recreate { try database.execute(sql) }
    }
}
