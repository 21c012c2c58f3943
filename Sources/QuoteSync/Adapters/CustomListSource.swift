import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteStore

/// A custom quote list (a GitHub Gist or any URL): the list is the truth. Quotes
/// are inserted, updated and removed to match it — except that an empty list, or
/// one that would remove more than half of a list of 10 or more, is refused as
/// suspicious unless the source says `allow_shrink = true`.
///
/// The body is never held: each record is decoded and checked as its bytes arrive and handed to
/// the store inside the source's transaction (`ListLoader`), which the engine commits only once
/// the whole body was read and valid. Memory does not grow with the list.
enum CustomListSource {
    static func sync(_ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        let settings = context.settings
        let loader = ListLoader(context)
        let fetched: SyncContext.Fetched
        do {
            fetched = try await context.fetch(settings.url, streamingTo: loader, digest: { loader.digest() })
        } catch {
            // A transfer the loader stopped failed for the loader's reason (not JSON, a store error).
            throw loader.failure ?? error
        }
        switch fetched {
        case .unchanged(let stored, let status):
            // A 200 whose body hashed to the last one applied changed nothing it wrote either.
            return .unchanged(what: "", validators: [stored], status: status)
        case .body(let response, let validators):
            if let failure = loader.failure { throw failure }
            return try loader.update(validators: validators, status: response.status)
        }
    }

    /// What a list's body held in memory changes (a hub's feed file, checked whole against its
    /// digest before anything is read): the same reader and writer as a streamed body.
    static func update(from response: HTTPResponse, validators: Validators, _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        let loader = ListLoader(context)
        _ = response.body.withUnsafeBytes { loader.receive($0) }
        if let failure = loader.failure { throw failure }
        return try loader.update(validators: validators, status: response.status)
    }
}

/// Reads one list's body as it arrives: hashes it, decodes and checks each record, and writes
/// each good one into the source's transaction (opened by the first byte); counts what it left
/// out. Everything it holds is one record and a few counters.
///
/// @unchecked Sendable: used by one thread at a time (the transfer's, then the engine's).
final class ListLoader: HTTPBodySink, @unchecked Sendable {
    private let settings: SourceSettings
    private let transaction: SourceTransaction
    private let now: Int
    private let storePath: String
    private let progress: @Sendable (String) -> Void
    private var reader: CustomList.Reader
    private var hasher = FeedDigest()
    private var merge: ListMerge?
    private(set) var problems = CustomList.ProblemLog()
    private(set) var validCount = 0
    /// Why the body was refused while it arrived.
    private(set) var failure: SourceFailure?

    init(_ context: SyncContext) {
        settings = context.settings
        transaction = context.transaction
        now = context.now
        storePath = context.knowledge.path
        progress = context.progress
        reader = CustomList.Reader(source: context.settings.name)
    }

    func digest() -> String { hasher.finish() }

    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        hasher.update(chunk)
        do {
            let merge = try self.merge ?? start()
            try reader.feed(chunk) { record in
                switch record {
                case .quote(let quote, let position):
                    if try merge.add(quote) == .duplicate {
                        problems.add(CustomList.Problem(record: position, upstreamID: quote.upstreamID, reason: "duplicate id"))
                    } else {
                        validCount += 1
                        if validCount % 50_000 == 0 { progress("\(validCount) quotes read and written") }
                    }
                case .problem(let problem):
                    problems.add(problem)
                    if let id = problem.upstreamID { try merge.keep(upstreamID: id) }
                }
            }
            return true
        } catch {
            failure = Self.failure(error, storePath: storePath)
            return false
        }
    }

    /// The first byte opens the source's transaction: from here on, the store's write lock is
    /// this list's until the engine commits or rolls back.
    private func start() throws -> ListMerge {
        let database = try transaction.open()
        let merge = try ListMerge(database: database, source: settings.name, url: settings.url, now: now)
        self.merge = merge
        return merge
    }

    /// What the body, read whole, changes: the removals, after the shrink guard, in the engine's apply.
    func update(validators: Validators, status: Int) throws(SourceFailure) -> SourceUpdate {
        do {
            try reader.finish()
        } catch {
            throw SourceFailure("the list is \(error)", httpStatus: status)
        }
        if validCount == 0 && !settings.allowShrink {
            throw SourceFailure(problems.first.map { "refusing a list with no valid quote (\($0))" }
                                ?? "refusing an empty list (allow_shrink = true accepts it)", httpStatus: status)
        }
        let (settings, problems, validCount, loaded) = (settings, problems, validCount, merge)
        var update = SourceUpdate { counts in Plural.count(validCount, "quote") + ", " + changeSummary(counts) + problems.summary }
        update.validators = [validators]
        update.httpStatus = status
        update.skipped = problems.count
        update.apply = { database, now in
            let merge = try loaded ?? ListMerge(database: database, source: settings.name, url: settings.url, now: now)
            return try merge.finish(removeMissing: !problems.anyWithoutID) { toRemove, stored in
                try ShrinkGuard.check(what: "quotes", removing: toRemove, of: stored, incoming: validCount,
                                      allowed: settings.allowShrink, minimumStored: 10, httpStatus: status)
            }
        }
        return update
    }

    /// A record the store refuses is the upstream's fault; a body that is no list is named so.
    private static func failure(_ error: any Error, storePath: String) -> SourceFailure {
        switch error {
        case let failure as SourceFailure: return failure
        case let list as CustomList.Failure: return SourceFailure("the list is \(list)", httpStatus: 200)
        case let database as DatabaseError where database.resultCode == .constraint:
            return SourceFailure("the upstream sent data the store refuses (\(database.message)); store left as it was")
        case let database as DatabaseError: return SourceFailure.local(StoreError(database, path: storePath))
        default: return SourceFailure("\(error)")
        }
    }
}
