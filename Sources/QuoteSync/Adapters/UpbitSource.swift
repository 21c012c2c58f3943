import QuoteBase
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteText

/// The Upbit market list: a full snapshot each run. Pairs missing from it get
/// `delisted_at` (cleared if they return). 429 backs off; 418 means Upbit has
/// blocked us, so nothing is sent until the block time has passed.
enum UpbitSource {
    static let defaultBackoffAfter429 = 60
    static let defaultBlockAfter418 = 600

    static func sync(_ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let response: HTTPResponse
        let validators: Validators
        do {
            switch try await context.fetch(context.settings.url) {
            case .unchanged(let stored, let status):
                return .unchanged(what: "", validators: [stored], status: status)
            case .body(let body, let fresh):
                (response, validators) = (body, fresh)
            }
        } catch var failure {
            if failure.httpStatus == 429 {
                failure.retryAfter = failure.retryAfter ?? context.now + defaultBackoffAfter429
            } else if failure.httpStatus == 418 {
                let until = failure.retryAfter ?? context.now + defaultBlockAfter418
                failure.retryAfter = until
                let capped = failure.retryAfterCapped ? " (capped at 7 days: Upbit asked for longer)" : ""
                failure.message = "blocked by Upbit (HTTP 418) for \(until - context.now) s: too many requests" + capped
            }
            throw failure
        }
        return try update(from: response, validators: validators, context)
    }

    /// What a market list changes: from Upbit, or from a hub's feed (the same array).
    static func update(from response: HTTPResponse, validators: Validators, _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        let document = try context.json(response, what: "the market list")
        guard let records = document.array else {
            throw SourceFailure("expected a JSON array of markets, found \(document.kindName)", httpStatus: response.status)
        }
        var markets: [Market] = []
        var keep = Set<String>()
        var skipped = 0
        for record in records {
            if let market = market(from: record) {
                markets.append(market)
            } else {
                skipped += 1
                if let name = record["market"]?.string { keep.insert(name) }
            }
        }
        if markets.isEmpty {
            throw SourceFailure("the market list holds no valid market; store left as it was", httpStatus: response.status)
        }
        var update = SourceUpdate { counts in Plural.count(markets.count, "market") + ", " + changeSummary(counts) }
        update.validators = [validators]
        update.httpStatus = response.status
        update.skipped = skipped
        update.apply = { connection, now in
            try connection.quotes.ensureSource(SourceName.upbit, url: context.settings.url, now: now)
            return try connection.records.applyMarketSnapshot(markets, keep: keep, now: now)
        }
        return update
    }

    static func market(from record: JSONValue) -> Market? {
        guard let object = record.object, let name = object["market"]?.string else { return nil }
        let parts = name.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, name.utf8.count <= 32, !parts[0].isEmpty, !parts[1].isEmpty,
              name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        guard let korean = RecordText.validOptional(object["korean_name"], field: "korean_name"),
              let english = RecordText.validOptional(object["english_name"], field: "english_name") else { return nil }
        let event = object["market_event"]
        // `market_warning` ("CAUTION"/"NONE") was removed in 2024; read it only when present.
        let warning = event?["warning"]?.bool ?? (object["market_warning"]?.string == "CAUTION")
        var cautions: [String] = []
        if let flags = event?["caution"]?.object {
            for member in flags.members where member.value.bool == true { cautions.append(member.key) }
        }
        let caution = JSONWriter.serialize(.array(cautions.sorted().map(JSONValue.string)))
        return Market(market: name, quoteCurrency: String(parts[0]), baseCurrency: String(parts[1]),
                      koreanName: korean, englishName: english, warning: warning, caution: caution)
    }
}
