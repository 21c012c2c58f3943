import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteStore
import QuoteSystem

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
            // The writer stops before the engine rolls back; a transfer the loader stopped failed
            // for the loader's reason (not JSON, a store error).
            loader.stop()
            throw loader.failure ?? error
        }
        switch fetched {
        case .unchanged(let stored, let status):
            // A 200 whose body hashed to the last one applied changed nothing it wrote either.
            loader.stop()
            return .unchanged(what: "", validators: [stored], status: status)
        case .body(let response, let validators):
            return try loader.update(validators: validators, status: response.status)
        }
    }

    /// What a list's body held in memory changes (a hub's feed file, checked whole against its
    /// digest before anything is read): the same reader and writer as a streamed body.
    static func update(from response: HTTPResponse, validators: Validators, _ context: SyncContext) throws(SourceFailure) -> SourceUpdate {
        let loader = ListLoader(context)
        _ = response.body.withUnsafeBytes { loader.receive($0) }
        return try loader.update(validators: validators, status: response.status)
    }
}

/// Reads one list's body as it arrives, in a pipeline of two threads: the transfer's thread hashes
/// the bytes, decodes and checks each record; a writer thread (`ListWriter`) writes each good one
/// into the source's transaction, opened by the first batch. Between them, a few batches of
/// records: memory holds those and a few counters, never the body. On two cores decoding and
/// SQLite's work overlap (a million-quote list: see docs/benchmarks.md).
///
/// @unchecked Sendable: each side's state is touched by its own thread only; the writer's is read
/// after its thread was joined.
final class ListLoader: HTTPBodySink, @unchecked Sendable {
    private var reader: CustomList.Reader
    private var hasher = FeedDigest()
    private var batch: [CustomList.Reader.Record] = []
    private let writer: ListWriter
    private var pipeline: (queue: Handoff<[CustomList.Reader.Record]>, thread: JoinableThread)?
    private var pipelineEnded = false
    /// Why the body was refused while it arrived (not JSON, not a list); the writer keeps its own.
    private var readFailure: SourceFailure?
    /// Records per batch, and batches in flight: enough to keep both threads busy.
    static let batchSize = 512
    static let batchesInFlight = 8

    init(_ context: SyncContext) {
        reader = CustomList.Reader(source: context.settings.name)
        writer = ListWriter(context)
    }

    func digest() -> String { hasher.finish() }

    /// Why the body was refused, once the pipeline has ended.
    var failure: SourceFailure? { readFailure ?? writer.failure }

    private struct WriterStopped: Error {}

    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        hasher.update(chunk)
        do {
            try reader.feed(chunk) { record in
                batch.append(record)
                if batch.count == Self.batchSize { try handOver() }
            }
            return true
        } catch is WriterStopped {
            return false
        } catch {
            readFailure = ListWriter.failure(error, storePath: writer.storePath)
            return false
        }
    }

    /// Sends the batch to the writer's thread (started by the first), or writes it here if no
    /// thread could be had.
    private func handOver() throws {
        let records = batch
        batch.removeAll(keepingCapacity: true)
        if pipeline == nil, !pipelineEnded {
            let queue = Handoff<[CustomList.Reader.Record]>(capacity: Self.batchesInFlight)
            let writer = self.writer
            if let thread = JoinableThread({ writer.run(taking: queue) }) {
                pipeline = (queue, thread)
            } else {
                pipelineEnded = true
            }
        }
        if let pipeline {
            guard pipeline.queue.put(records) else { throw WriterStopped() }
        } else if !writer.write(records) {
            throw WriterStopped()
        }
    }

    /// Waits for the writer to have written everything read (or to have stopped).
    private func endPipeline() {
        if readFailure == nil, !batch.isEmpty { try? handOver() }
        if let pipeline {
            if readFailure != nil { pipeline.queue.abandon() } else { pipeline.queue.close() }
            pipeline.thread.join()
        }
        pipeline = nil
        pipelineEnded = true
    }

    /// Stops the writer after a failed transfer, before the engine rolls the transaction back.
    func stop() {
        if let pipeline { pipeline.queue.abandon() }
        endPipeline()
    }

    /// What the body, read whole, changes: the removals, after the shrink guard, in the engine's apply.
    func update(validators: Validators, status: Int) throws(SourceFailure) -> SourceUpdate {
        endPipeline()
        if let failure { throw failure }
        do {
            try reader.finish()
        } catch {
            throw SourceFailure("the list is \(error)", httpStatus: status)
        }
        return try writer.update(validators: validators, status: status)
    }
}

/// The writing half of a `ListLoader`: hands each record to `ListMerge` inside the source's
/// transaction, counts what it wrote and what was left out.
final class ListWriter: @unchecked Sendable {
    private let settings: SourceSettings
    private let transaction: SourceTransaction
    private let now: Int
    let storePath: String
    private let progress: @Sendable (String) -> Void
    private var merge: ListMerge?
    private var problems = CustomList.ProblemLog()
    private var validCount = 0
    private(set) var failure: SourceFailure?

    init(_ context: SyncContext) {
        settings = context.settings
        transaction = context.transaction
        now = context.now
        storePath = context.knowledge.path
        progress = context.progress
    }

    /// The writer thread's loop: every batch until the queue ends, or the first failure.
    func run(taking queue: Handoff<[CustomList.Reader.Record]>) {
        while let records = queue.take() {
            guard write(records) else {
                queue.abandon()
                return
            }
        }
    }

    /// Writes `records`; false (and `failure` set) when the store refused.
    func write(_ records: [CustomList.Reader.Record]) -> Bool {
        do {
            // The first batch opens the source's transaction: from here on, the store's write
            // lock is this list's until the engine commits or rolls back.
            let merge = try self.merge ?? {
                let started = try ListMerge(database: try transaction.open(), source: settings.name, url: settings.url, now: now)
                self.merge = started
                return started
            }()
            for record in records {
                switch record {
                case .quote(let quote, let hash, let position):
                    if try merge.add(quote, hash: hash) == .duplicate {
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

    func update(validators: Validators, status: Int) throws(SourceFailure) -> SourceUpdate {
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
    static func failure(_ error: any Error, storePath: String) -> SourceFailure {
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
