import QuoteBase
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteText

/// The Korean "happiness" quote of the day. The upstream returns the same quote
/// all day (row dayOfYear % count, day boundary 00:00 UTC), so one request per run;
/// quotes accumulate and are never deleted; each is stored as that UTC day's quote.
enum HappinessSource {
    static func sync(_ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        let day = UnixTime.dateString(day: UnixTime.utcDay(context.now))
        switch try await context.fetch(settings.url) {
        case .unchanged(let validators, let status):
            // Same body as last time: the quote we already have is today's quote too.
            var update = SourceUpdate.unchanged(what: "", validators: [validators], status: status)
            update.apply = { connection, _ in
                try connection.quotes.repeatLatestDailyQuote(source: SourceName.happiness, day: day)
                return ChangeCounts()
            }
            return update
        case .body(let response, let validators):
            let document = try context.json(response, what: "the reply")
            guard let data = document["data"]?.object else {
                let message = document["message"]?.string.map { ": \(TerminalSanitizer.clean($0))" } ?? ""
                throw SourceFailure("the reply has no \"data\" object\(message)", httpStatus: response.status)
            }
            let decoded = quote(from: data)
            var update = SourceUpdate { counts in
                guard counts.skipped > 0, case .failure(let problem) = decoded else { return "1 quote, " + changeSummary(counts) }
                return "0 quotes, 1 skipped (\(problem))"
            }
            update.validators = [validators]
            update.httpStatus = response.status
            guard case .success(let quote) = decoded else {
                // Recorded as skipped: the source answered, its record was unusable.
                update.skipped = 1
                return update
            }
            update.apply = { connection, now in
                let writer = connection.quotes
                try writer.ensureSource(SourceName.happiness, url: settings.url, now: now)
                let counts = try writer.apply([quote], to: SourceName.happiness, removeMissing: false, now: now)
                try writer.setDailyQuote(source: SourceName.happiness, upstreamID: quote.upstreamID, day: day)
                return counts
            }
            return update
        }
    }

    /// The quote of `data`, or why it cannot be kept (naming its id when it has one).
    static func quote(from data: JSONObject) -> Result<Quote, SkippedRecord> {
        guard let id = data["id"]?.int else {
            return .failure(SkippedRecord(id: nil, reason: "\"id\" must be an integer"))
        }
        do throws(FieldProblem) {
            let text = try RecordText.required(data["content"], field: "content")
            let author = try RecordText.optional(data["author"], field: "author")
            return .success(Quote(source: SourceName.happiness, upstreamID: String(id), text: text, author: author,
                                  category: "happiness", lang: LanguageGuess.guess(text)))
        } catch {
            return .failure(SkippedRecord(id: String(id), reason: error.reason))
        }
    }
}

/// A record left out of a sync, and why: "id 60: "content" is empty".
struct SkippedRecord: Error, CustomStringConvertible {
    let id: String?
    let reason: String

    var description: String { (id.map { "id \($0): " } ?? "") + reason }
}
