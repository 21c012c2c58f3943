/// The words a shell completion offers from the store: list names, and the values of the
/// filters (`--character`, `--production`, `--category`), most used first. Read-only, small.
public struct Vocabulary {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// The custom lists, by their NAME (what `forget` and `import --name` take).
    public func listNames() throws(StoreError) -> [String] {
        try strings("SELECT substr(name, 8) FROM sources WHERE kind = 'custom' ORDER BY name")
    }

    /// Breaking Bad's characters: those with quotes, then those known from the characters table.
    public func characters(limit: Int = 500) throws(StoreError) -> [String] {
        try strings("""
            SELECT author FROM quotes WHERE source = 'breakingbad' AND author IS NOT NULL
            GROUP BY author ORDER BY count(*) DESC, author LIMIT ?1
            """, [.integer(limit)])
    }

    public func productions() throws(StoreError) -> [String] {
        try strings("SELECT production FROM quotes WHERE production IS NOT NULL GROUP BY production ORDER BY count(*) DESC, production")
    }

    public func categories(limit: Int = 500) throws(StoreError) -> [String] {
        try strings("""
            SELECT category FROM quotes WHERE category IS NOT NULL GROUP BY category ORDER BY count(*) DESC, category LIMIT ?1
            """, [.integer(limit)])
    }

    /// The first column of `sql`'s rows.
    private func strings(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> [String] {
        try database.storeOperation { () throws(DatabaseError) in
            let statement = try database.prepare(sql)
            try statement.bind(values)
            var result: [String] = []
            while try statement.step() { result.append(statement.string(0)) }
            return result
        }
    }
}
