import QuoteModels

/// The tables a source fills besides `quotes`, counted — for `status` and the health reading alike.
/// The small tables only: quotes are never counted here (the writers keep their count).
enum SourceTables {
    /// Whether `source` brings quotes: upbit and weather bring none.
    static func bringsQuotes(_ source: String) -> Bool {
        source != SourceName.upbit && source != SourceName.weather
    }

    /// Its rows in the tables other than `quotes`, in the order status shows them.
    static func otherRows(of source: String, in database: Database) throws(DatabaseError) -> [TableRows] {
        switch source {
        case SourceName.breakingbad:
            return [TableRows(table: "characters", count: try count("characters", in: database)),
                    TableRows(table: "deaths", count: try count("deaths", in: database))]
        case SourceName.upbit:
            // English on purpose: SQL
            return [TableRows(table: "markets", count: try count("markets WHERE delisted_at IS NULL", in: database)),
                    // English on purpose: SQL
                    TableRows(table: "delisted", count: try count("markets WHERE delisted_at IS NOT NULL", in: database))]
        case SourceName.weather:
            return [TableRows(table: "observations", count: try count("weather_observations", in: database))]
        default:
            return []
        }
    }

    private static func count(_ from: String, in database: Database) throws(DatabaseError) -> Int {
        try database.scalarInt("SELECT count(*) FROM \(from)") ?? 0
    }
}
