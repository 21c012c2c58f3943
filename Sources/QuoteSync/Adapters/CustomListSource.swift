import QuoteBase
import QuoteConfig
import QuoteStore

/// A custom quote list (a GitHub Gist or any URL): the list is the truth. Quotes
/// are inserted, updated and removed to match it — except that an empty list, or
/// one that would remove more than half of a list of 10 or more, is refused as
/// suspicious unless the source says `allow_shrink = true`.
enum CustomListSource {
    static func sync(_ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        let response: HTTPResponse
        let validators: Validators
        switch try await context.fetch(settings.url) {
        case .unchanged(let stored, let status):
            return .unchanged(what: "", validators: [stored], status: status)
        case .body(let body, let fresh):
            (response, validators) = (body, fresh)
        }
        return try update(from: response, validators: validators, context)
    }

    /// What a list's body changes: from its upstream, or from a hub's feed (the same format).
    static func update(from response: HTTPResponse, validators: Validators, _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        // Two passes over the body: the first validates everything before anything is
        // written; the second streams the quotes into the transaction, so a million-quote
        // list never becomes a million-element array (peak memory stays near the body's size).
        let validation: CustomList.Validation
        do {
            // Gists serve JSON as text/plain: the body is parsed whatever the Content-Type.
            var checked = 0
            let progress = context.progress
            validation = try CustomList.scan(response.body, source: settings.name) { _ in
                checked += 1
                if checked % 50_000 == 0 { progress("validated \(checked) records") }
            }
        } catch {
            throw SourceFailure("the list is \(error)", httpStatus: response.status)
        }
        let status = response.status
        if validation.validCount == 0 && !settings.allowShrink {
            throw SourceFailure(validation.problems.isEmpty
                                ? "refusing an empty list (allow_shrink = true accepts it)"
                                : "refusing a list with no valid quote (\(validation.problems[0]))",
                                httpStatus: status)
        }
        // A skipped record never removes the stored version of itself; one whose id
        // cannot even be read could be any stored quote, so nothing is removed then.
        let keep = Set(validation.problems.compactMap(\.upstreamID))
        let removalsAllowed = !validation.problems.contains { $0.upstreamID == nil }
        let body = response.body
        // The first record left out is named, so whoever keeps the list can mend it.
        let firstProblem = validation.problems.first.map { first in
            " (" + first.description + (validation.problems.count > 1 ? "; and \(validation.problems.count - 1) more" : "") + ")"
        } ?? ""
        var update = SourceUpdate { counts in Plural.count(validation.validCount, "quote") + ", " + changeSummary(counts) + firstProblem }
        update.validators = [validators]
        update.httpStatus = status
        update.skipped = validation.problems.count
        update.apply = { database, now in
            let writer = QuoteWriter(database: database)
            try writer.ensureSource(settings.name, url: settings.url, now: now)
            let progress = context.progress
            let batch = QuoteBatch(count: validation.validCount, contains: validation.contains) { visit in
                var applied = 0
                try CustomList.forEachValid(body, source: settings.name, validation: validation) { quote in
                    applied += 1
                    if applied % 50_000 == 0 { progress("writing \(applied) of \(validation.validCount) quotes") }
                    try visit(quote)
                }
            }
            return try writer.apply(batch, to: settings.name, removeMissing: removalsAllowed, keep: keep, now: now) {
                toRemove, stored in
                try ShrinkGuard.check(what: "quotes", removing: toRemove, of: stored, incoming: validation.validCount,
                                      allowed: settings.allowShrink, minimumStored: 10, httpStatus: status)
            }
        }
        return update
    }
}
