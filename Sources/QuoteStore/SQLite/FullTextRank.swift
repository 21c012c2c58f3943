import CSQLite
import Glibc

/// `quoted_bm25(quotes_fts, WEIGHTS)`: FTS5's bm25 with the phrases of a query taken in groups.
///
/// FTS5's own bm25 counts, for every phrase of the query, the rows that contain it (the phrase's
/// inverse document frequency) by reading the phrase's whole doclist, which for a common word
/// on a big store costs more than the rest of the search (docs/benchmarks.md). A search also writes one word as the
/// OR of the terms that start with it (a prefix query would merge their doclists first). This
/// function scores such a group as one phrase, with the document frequency the caller counted
/// (and stopped counting at half the rows, where bm25's IDF is clamped anyway): the same
/// arithmetic as `fts5Bm25Function`, in the same order, so the scores are FTS5's own.
///
/// WEIGHTS is a blob of little-endian Float64 pairs, one pair per group in query order: how many
/// phrases the group holds, and its IDF.
enum FullTextRank {
    static let functionName = "quoted_bm25"

    /// bm25's constants, as FTS5 has them.
    private static let k1 = 1.2
    private static let b = 0.75

    /// The blob `quoted_bm25` takes: (phrases, idf) for each group.
    static func weights(_ groups: [(phrases: Int, idf: Double)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(groups.count * 16)
        for group in groups {
            for value in [Double(group.phrases), group.idf] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }

    /// bm25's inverse document frequency of a phrase found in `hits` of `rows` rows; FTS5 clamps it
    /// to 1e-6 from half the rows on, so a count that reached `(rows + 1) / 2` needs no more.
    static func inverseDocumentFrequency(hits: Int, rows: Int) -> Double {
        guard hits < halfOfRows(rows) else { return 1e-6 }
        let idf = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
        return idf <= 0 ? 1e-6 : idf
    }

    /// The count from which a phrase's IDF is clamped: 2 × hits ≥ rows.
    static func halfOfRows(_ rows: Int) -> Int { rows / 2 + rows % 2 }

    /// The number of rows in `quotes_fts`'s index, as bm25 sees it.
    static func rowCount(of database: Database) throws(DatabaseError) -> Int {
        let averages = try database.prepare("SELECT block FROM quotes_fts_data WHERE id = 1")
        guard try averages.step(), let rows = rowCount(averages: averages.blob(0)) else {
            // English on purpose: SQLite's own diagnostics of a query this module wrote (a bug if ever seen)
            throw DatabaseError(extendedCode: SQLITE_CORRUPT, message: "the full-text index has no row count (quotes_fts_data 1)")
        }
        return rows
    }

    /// The number of rows FTS5 counts in its index (what bm25 calls N), read from the index's
    /// "averages" record: a varint row count, then a varint of tokens per column. Nil for a
    /// record that does not start with a whole varint.
    static func rowCount(averages: [UInt8]) -> Int? {
        // SQLite's varint: big-endian groups of 7 bits, the high bit saying another byte follows;
        // a ninth byte gives all its 8 bits.
        var value: UInt64 = 0
        for (index, byte) in averages.prefix(9).enumerated() {
            if index == 8 { return Int(exactly: value << 8 | UInt64(byte)) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return Int(exactly: value) }
        }
        return nil
    }

    /// Makes `quoted_bm25` known to `database`'s connection (FTS5 keeps it per connection).
    static func register(on database: Database) throws(DatabaseError) {
        var api: UnsafeMutablePointer<fts5_api>?
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(database.handle, "SELECT fts5(?1)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK else { throw database.error(code: code, sql: "SELECT fts5(?1)") }
        // The pointer type's name must outlive the statement: a static string.
        let pointerType = UnsafeRawPointer(("fts5_api_ptr" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
        code = withUnsafeMutablePointer(to: &api) { sqlite3_bind_pointer(statement, 1, $0, pointerType, nil) }
        guard code == SQLITE_OK else { throw database.error(code: code, sql: "SELECT fts5(?1)") }
        code = sqlite3_step(statement)
        guard code == SQLITE_ROW || code == SQLITE_DONE, let api, let create = api.pointee.xCreateFunction else {
            throw database.error(code: code == SQLITE_ROW || code == SQLITE_DONE ? SQLITE_ERROR : code, sql: "SELECT fts5(?1)")
        }
        code = create(api, functionName, nil, score, nil)
        if code == SQLITE_OK { code = create(api, hitsFunctionName, nil, hits, nil) }
        guard code == SQLITE_OK else { throw database.error(code: code, sql: nil) }
    }

    static let hitsFunctionName = "quoted_group_rows"

    /// `quoted_group_rows(quotes_fts, FIRST, COUNT, CAP, LOWEST)`: how many rows of the index hold
    /// any of the query's phrases FIRST ..< FIRST + COUNT, counted up to CAP (LOWEST: the smallest
    /// row id, where the set of rows seen begins). Called on any one row the query matched; FTS5
    /// walks each phrase's doclist itself: a count through SQL would pass every row through the
    /// VDBE, nearly twice the time (docs/benchmarks.md).
    private static let hits: fts5_extension_function = { api, fts, context, count, values in
        guard let apiPointer = api, let context else { return }
        guard count == 4, let values, (0..<4).allSatisfy({ sqlite3_value_type(values[$0]) == SQLITE_INTEGER }) else {
            // English on purpose: SQLite's own diagnostics of a query this module wrote (a bug if ever seen)
            sqlite3_result_error(context, "quoted_group_rows: expects a first phrase, a count, a cap and the lowest row id", -1)
            return
        }
        let first = sqlite3_value_int64(values[0]), phrases = sqlite3_value_int64(values[1])
        guard first >= 0, phrases >= 1, phrases <= Int64(apiPointer.pointee.xPhraseCount!(fts)) - first else {
            // English on purpose: SQLite's own diagnostics of a query this module wrote (a bug if ever seen)
            sqlite3_result_error(context, "quoted_group_rows: no such phrases", -1)
            return
        }
        var tally = GroupTally(cap: max(0, sqlite3_value_int64(values[2])), lowest: Int(sqlite3_value_int64(values[3])))
        var code = SQLITE_OK
        // The group's first phrase (the word itself, where it is a term: mostly the commonest)
        // is walked last, only looking up the rows the others held instead of keeping its own.
        for phrase in (first..<(first + phrases)).reversed() where code == SQLITE_OK && tally.count < tally.cap {
            tally.keepsRows = phrase != first
            code = withUnsafeMutablePointer(to: &tally) { pointer in
                apiPointer.pointee.xQueryPhrase!(fts, Int32(phrase), pointer) { api, fts, user in
                    let tally = user!.assumingMemoryBound(to: GroupTally.self)
                    if tally.pointee.keepsRows || tally.pointee.holdsRows {
                        let row = Int(api!.pointee.xRowid!(fts))
                        if tally.pointee.keepsRows {
                            guard tally.pointee.seen.insertNew(row) else { return SQLITE_OK }
                            tally.pointee.holdsRows = true
                        } else if tally.pointee.seen.contains(row) {
                            return SQLITE_OK
                        }
                    }
                    tally.pointee.count += 1
                    return tally.pointee.count < tally.pointee.cap ? SQLITE_OK : SQLITE_DONE
                }
            }
        }
        guard code == SQLITE_OK || code == SQLITE_DONE else {
            sqlite3_result_error_code(context, code)
            return
        }
        sqlite3_result_int64(context, tally.count)
    }

    /// What `quoted_group_rows` keeps while FTS5 walks the phrases.
    private struct GroupTally {
        var count: Int64 = 0
        let cap: Int64
        /// The rows counted so far, while another phrase of the group is still to come.
        var seen: RowSet
        var keepsRows = false
        var holdsRows = false

        init(cap: Int64, lowest: Int) {
            self.cap = cap
            seen = RowSet(from: lowest)
        }
    }

    /// The function FTS5 calls for every row it ranks.
    private static let score: fts5_extension_function = { api, fts, context, count, values in
        guard let api = api?.pointee, let context else { return }
        guard count == 1, let values, sqlite3_value_type(values[0]) == SQLITE_BLOB,
              let blob = sqlite3_value_blob(values[0]) else {
            // English on purpose: SQLite's own diagnostics of a query this module wrote (a bug if ever seen)
            sqlite3_result_error(context, "quoted_bm25: expects one blob of weights", -1)
            return
        }
        let groupCount = Int(sqlite3_value_bytes(values[0])) / 16
        func weight(_ index: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: blob.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
        }
        // Which group each phrase belongs to; the groups must cover the query's phrases exactly.
        let phraseCount = Int(api.xPhraseCount!(fts))
        var groupOfPhrase = [Int](repeating: 0, count: phraseCount)
        var next = 0
        for group in 0..<groupCount {
            let phrases = weight(group * 2)
            guard phrases >= 1, phrases <= Double(phraseCount - next) else { next = -1; break }
            for _ in 0..<Int(phrases) { groupOfPhrase[next] = group; next += 1 }
        }
        guard next == phraseCount else {
            // English on purpose: SQLite's own diagnostics of a query this module wrote (a bug if ever seen)
            sqlite3_result_error(context, "quoted_bm25: the weights do not match the query's \(phraseCount) phrases", -1)
            return
        }
        var frequencies = [Double](repeating: 0, count: groupCount)
        var instances: Int32 = 0
        var code = api.xInstCount!(fts, &instances)
        var instance: Int32 = 0
        while code == SQLITE_OK && instance < instances {
            var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
            code = api.xInst!(fts, instance, &phrase, &column, &offset)
            if code == SQLITE_OK, phrase >= 0, Int(phrase) < phraseCount { frequencies[groupOfPhrase[Int(phrase)]] += 1.0 }
            instance += 1
        }
        var tokens: Int32 = 0, rows: Int64 = 0, totalTokens: Int64 = 0
        if code == SQLITE_OK { code = api.xColumnSize!(fts, -1, &tokens) }
        if code == SQLITE_OK { code = api.xRowCount!(fts, &rows) }
        if code == SQLITE_OK { code = api.xColumnTotalSize!(fts, -1, &totalTokens) }
        guard code == SQLITE_OK else {
            sqlite3_result_error_code(context, code)
            return
        }
        let averageLength = Double(totalTokens) / Double(rows)
        let length = Double(tokens)
        var score = 0.0
        for group in 0..<groupCount {
            let frequency = frequencies[group]
            score += weight(group * 2 + 1) * ((frequency * (k1 + 1.0)) / (frequency + k1 * (1 - b + b * length / averageLength)))
        }
        sqlite3_result_double(context, -1.0 * score)
    }
}
