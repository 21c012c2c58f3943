import QuoteModels
/// The quotes compiled into the binary, loaded into a new store as source
/// `builtin` so `quotectl random` answers before any sync has ever run.
public enum StarterSet {
    public static var quotes: [Quote] {
        starterSetData.split(separator: "\n").compactMap { line -> Quote? in
            let fields = line.split(separator: "|", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4 else { return nil }
            let author = String(fields[0])
            let text = String(fields[3])
            // Identity from content, so editing the list never renumbers the rest.
            var hasher = FNV1a()
            hasher.combine(author)
            hasher.combine(text)
            return Quote(source: SourceName.builtin, upstreamID: hasher.hex, text: text, author: author,
                         category: String(fields[1]), lang: String(fields[2]))
        }
    }

    /// Loads the set unless the store already has (or had) a `builtin` source.
    static func load(into database: Database, now: Int) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            let present = try database.storeOperation { () throws(DatabaseError) in
                try database.scalarInt("SELECT count(*) FROM sources WHERE name = ?1", [.text(SourceName.builtin)]) ?? 0
            }
            guard present == 0 else { return }
            let writer = QuoteWriter(database: database)
            try writer.ensureSource(SourceName.builtin, now: now)
            try writer.apply(quotes, to: SourceName.builtin, removeMissing: false, now: now)
        }
    }
}
