import QuoteBase
import QuoteCommandLine
import QuoteFormats
import QuoteModels
import QuoteStore
import QuoteUserState

/// `export --liked` and `import --liked`: the quotes a user liked, out to a file in any export
/// format and back in through the readers `import` uses. The store is never written: users
/// cannot write the daemon's store, and a liked quote needs none.
enum LikedTransfer {
    /// Writes the liked quotes; their ids are SOURCE:ID, so that reading them back keeps their source.
    static func export(format: ExportFormat) -> ExitCode {
        let liked = KeptList.liked()
        if let problem = liked.problem { Output.error(tr("\(problem.message); exporting what could be read")) }
        guard !liked.isEmpty else {
            Output.error(tr("no liked quotes to export (quotectl like keeps the last quote shown)"))
            return .noInput
        }
        let quotes = liked.entries.map { kept in
            Quote(source: kept.key.source, upstreamID: kept.key.description, text: kept.text, author: kept.author, lang: kept.lang)
        }
        var export = QuoteExport(format: format, name: "liked", now: Run.now(), write: Output.write)
        for quote in quotes { export.add(quote) }
        export.finish()
        return .success
    }

    /// Reads `file` and adds its quotes to the liked ones; nothing is added from a file that is
    /// not a list (exit 65) or cannot be read.
    static func importFile(_ file: String, format: ListFormat, limit: Int, context: inout Context) throws -> ExitCode {
        var read: [Quote] = []
        var skipped = 0
        do {
            let chunks = try inputChunks(of: file, limit: limit)
            var reader = try ListReaders.reader(for: format, source: QuoteKey.importedSource, name: file == "-" ? nil : file)
            let take: (ListRecord) -> Void = { record in
                switch record {
                case .quote(let entry): read.append(entry.quote)
                case .problem: skipped += 1
                }
            }
            while let chunk = try chunks.next() { try chunk.withUnsafeBytes { try reader.feed($0, take) } }
            try reader.finish(take)
        } catch let error as FileError {
            Output.error(tr("\(error); no quote liked"))
            return error.exitCode
        } catch let error as ListFailure {
            Output.error(tr("\(file): \(error); no quote liked"))
            return .dataError
        }
        guard !read.isEmpty else {
            Output.error(tr("\(file): no quotes in it; no quote liked"))
            return .dataError
        }
        let keys = try self.keys(of: read, context: &context)
        let lock = try StateFolder.current().lock()
        defer { withExtendedLifetime(lock) {} }
        var liked = KeptList.liked()
        let now = Run.now()
        var added = 0
        for (quote, key) in zip(read, keys)
        where liked.add(KeptQuote(key: key, text: quote.text, author: quote.author, lang: quote.lang, time: now)) { added += 1 }
        if added > 0 { try liked.save() }
        let already = read.count - added
        Output.line(skipped > 0
            ? trn(added, "liked: \(added) quote added from \(file) (\(already) liked already, \(skipped) unreadable records skipped)",
                  "liked: \(added) quotes added from \(file) (\(already) liked already, \(skipped) unreadable records skipped)")
            : trn(added, "liked: \(added) quote added from \(file) (\(already) liked already)",
                  "liked: \(added) quotes added from \(file) (\(already) liked already)"))
        return .success
    }

    /// Each quote's key: SOURCE:ID as export --liked wrote it; else the store's quote with the
    /// same text (one pass over the store); else the id read, under the source "imported".
    private static func keys(of quotes: [Quote], context: inout Context) throws -> [QuoteKey] {
        var keys = quotes.map { quote -> QuoteKey? in
            guard let (source, upstreamID) = QuoteKey.parse(quote.upstreamID), let source else { return nil }
            return QuoteKey(source: source, upstreamID: upstreamID)
        }
        var unplaced: [String: [Int]] = [:]
        for (index, key) in keys.enumerated() where key == nil { unplaced[quotes[index].text, default: []].append(index) }
        if !unplaced.isEmpty, let store = try? context.store() {
            try store.quotes.forEach(source: nil) { quote in
                for index in unplaced[quote.text] ?? [] where keys[index] == nil { keys[index] = QuoteKey(quote) }
            }
        }
        return zip(quotes, keys).map { quote, key in key ?? QuoteKey(source: QuoteKey.importedSource, upstreamID: quote.upstreamID) }
    }
}
