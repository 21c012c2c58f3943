import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteFormats
import QuoteModels
import QuoteStore
import QuoteSystem
import Synchronization

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
        // The reader is made once the response's Content-Type is known (`format = auto` weighs it).
        let (format, name, path) = (settings.listFormat, settings.name, urlPath(settings.url))
        let loader = ListLoader(context, format: format) { (contentType) throws(ListFailure) in
            try ListReaders.reader(for: format, source: name, contentType: contentType, name: path)
        }
        let fetched: SyncContext.Fetched
        do {
            fetched = try await context.fetch(settings.url, streamingTo: loader)
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
            return try loader.update(validators: validators, status: response.status, contentType: response.header("content-type"))
        }
    }

    /// The URL's path ("/quotes.csv" of "https://host/quotes.csv?raw=1"), for `auto`'s guess by
    /// name; nil when it has none.
    static func urlPath(_ url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let path = rest[slash...].prefix { $0 != "?" && $0 != "#" }
        return path.count > 1 ? String(path) : nil
    }
}

/// Reads one list's body as it arrives, in a pipeline of two threads: the transfer's thread hashes
/// the bytes, decodes and checks each record; a writer thread (`ListWriter`) writes each good one
/// into the source's transaction, opened by the first batch. Between them, a few batches of
/// records: memory holds those and a few counters, never the body. On two cores decoding and
/// SQLite's work overlap (a million-quote list: see docs/benchmarks.md).
final class ListLoader: HashingBodySink, Sendable {
    /// What the reading side keeps between chunks. Its lock is never contended (one chunk at a
    /// time, then the engine once the transfer is over); no wait happens while it is held.
    private struct Reading: ~Copyable {
        /// Made by `begin` (or, for an empty body, by `update`), once the Content-Type is known.
        var reader: (any ListReader)?
        var hasher = FeedDigest()
        var batch: [ListRecord] = []
        /// Why the body was refused while it arrived (not JSON, not a list); the writer keeps its own.
        var failure: SourceFailure?
    }

    private struct Pipeline {
        var started: (queue: Handoff<[ListRecord]>, thread: JoinableThread)?
        var ended = false
    }

    private let reading: Mutex<Reading>
    private let pipeline = Mutex(Pipeline())
    private let writer: ListWriter
    /// Records per batch, and batches in flight: enough to keep both threads busy.
    static let batchSize = 512
    static let batchesInFlight = 8

    private let format: ListFormat
    private let makeReader: @Sendable (_ contentType: String?) throws(ListFailure) -> any ListReader

    /// `format` is how the list is written (the configuration's, or the feed's own JSON on a
    /// spoke); `makeReader` makes its reader, told the response's Content-Type.
    init(_ context: SyncContext, format: ListFormat,
         makeReader: @escaping @Sendable (_ contentType: String?) throws(ListFailure) -> any ListReader) {
        reading = Mutex(Reading())
        writer = ListWriter(context)
        self.format = format
        self.makeReader = makeReader
    }

    /// A loader whose reader does not depend on the response (a spoke's feed file: always JSON).
    convenience init(_ context: SyncContext, format: ListFormat, reader: any ListReader) {
        self.init(context, format: format) { _ in reader }
    }

    func begin(contentType: String?) -> Bool {
        reading.withLock { side in Self.ensureReader(&side, contentType: contentType, make: makeReader) }
    }

    /// Makes the reader unless it exists; false (and `failure` set) when it cannot be made.
    private static func ensureReader(_ side: inout Reading, contentType: String?,
                                     make: (String?) throws(ListFailure) -> any ListReader) -> Bool {
        guard side.reader == nil, side.failure == nil else { return side.failure == nil }
        do throws(ListFailure) {
            side.reader = try make(contentType)
            return true
        } catch {
            side.failure = SourceFailure(classifying: error)
            return false
        }
    }

    func digest() -> String? { reading.withLock { $0.hasher.finish() } }

    /// Why the body was refused, once the pipeline has ended.
    var failure: SourceFailure? { reading.withLock { $0.failure } ?? writer.failure }

    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let makeReader = self.makeReader
        // Decoded under the lock; the full batches go to the writer outside it (`put` may wait).
        let full = reading.withLock { side -> [[ListRecord]]? in
            side.hasher.update(chunk)
            var full: [[ListRecord]] = []
            guard Self.ensureReader(&side, contentType: nil, make: makeReader), var reader = side.reader else { return nil }
            // Out of the optional while it reads (no copy of its buffer), put back whatever happens.
            side.reader = nil
            defer { side.reader = reader }
            do {
                try reader.feed(chunk) { record in
                    side.batch.append(record)
                    if side.batch.count == Self.batchSize {
                        full.append(side.batch)
                        side.batch.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                side.failure = SourceFailure(classifying: error)
                return nil
            }
            return full
        }
        guard let full else { return false }
        return full.allSatisfy(handOver)
    }

    /// Sends a batch to the writer's thread (started by the first), or writes it here if no thread
    /// could be had; false when the writer has stopped.
    private func handOver(_ records: [ListRecord]) -> Bool {
        let writer = self.writer
        let started = pipeline.withLock { state -> (queue: Handoff<[ListRecord]>, thread: JoinableThread)? in
            if state.started == nil, !state.ended {
                let queue = Handoff<[ListRecord]>(capacity: Self.batchesInFlight)
                if let thread = JoinableThread({ writer.run(taking: queue) }) {
                    state.started = (queue, thread)
                } else {
                    state.ended = true
                }
            }
            return state.started
        }
        if let started { return started.queue.put(records) }
        return writer.write(records)
    }

    /// Waits for the writer to have written everything read (or to have stopped).
    private func endPipeline() {
        let (rest, readFailed) = reading.withLock { side in
            defer { side.batch = [] }
            return (side.batch, side.failure != nil)
        }
        if !readFailed, !rest.isEmpty { _ = handOver(rest) }
        let started = pipeline.withLock { state in
            defer { state = Pipeline(started: nil, ended: true) }
            return state.started
        }
        if let started {
            if readFailed { started.queue.abandon() } else { started.queue.close() }
            started.thread.join()
        }
    }

    /// Stops the writer after a failed transfer, before the engine rolls the transaction back.
    func stop() {
        pipeline.withLock { $0.started?.queue.abandon() }
        endPipeline()
    }

    /// What the body, read whole, changes: the removals, after the shrink guard, in the engine's apply.
    /// `contentType`: the response's, for the reader of an empty body (made by no chunk).
    func update(validators: Validators, status: Int, contentType: String? = nil) throws(SourceFailure) -> SourceUpdate {
        let makeReader = self.makeReader
        // The body's end may complete a last record (a fortune file's, a CSV's last row): it joins
        // the batch before the pipeline ends.
        let (ended, decided) = reading.withLock { side -> (ListFailure?, ListFormat.Kind?) in
            guard Self.ensureReader(&side, contentType: contentType, make: makeReader), var reader = side.reader else { return (nil, nil) }
            side.reader = nil
            defer { side.reader = reader }
            do {
                try reader.finish { side.batch.append($0) }
                return (nil, reader.format)
            } catch let error as ListFailure {
                return (error, reader.format)
            } catch {
                return (ListFailure("\(error)"), reader.format)
            }
        }
        if ended != nil { stop() } else { endPipeline() }
        if let failure { throw failure }
        if let ended { throw SourceFailure("the list is \(ended)", httpStatus: status) }
        return try writer.update(validators: validators, status: status, archive: format.keepsArchive(decided: decided),
                                 readAs: format.kind == .auto ? decided : nil)
    }
}

/// The writing half of a `ListLoader`: hands each batch of records to the store's one list
/// pipeline (`ListIngest`, lenient: a bad record is left out, the rest kept) inside the source's
/// transaction. The merge lives with the connection it writes through (in `SourceTransaction`);
/// the pipeline's counts live in this lock, taken by the writer thread once per batch (the
/// transaction's inside it), then read once the pipeline has ended.
final class ListWriter: Sendable {
    private struct Writing {
        var ingest = ListIngest(policy: .lenient)
        var failure: SourceFailure?
    }

    private let settings: SourceSettings
    private let transaction: SourceTransaction
    private let now: Int
    let storePath: String
    private let progress: @Sendable (String) -> Void
    private let writing = Mutex(Writing())
    /// A progress line each time this many more quotes were written.
    private static let progressStep = 50_000

    var failure: SourceFailure? { writing.withLock { $0.failure } }

    init(_ context: SyncContext) {
        settings = context.settings
        transaction = context.transaction
        now = context.now
        storePath = context.storePath
        progress = context.progress
    }

    /// The writer thread's loop: every batch until the queue ends, or the first failure.
    func run(taking queue: Handoff<[ListRecord]>) {
        while let records = queue.take() {
            guard write(records) else {
                queue.abandon()
                return
            }
        }
    }

    /// Writes `records`; false (and `failure` set) when the store refused.
    func write(_ records: [ListRecord]) -> Bool {
        let (settings, now, progress, transaction) = (settings, now, progress, transaction)
        return writing.withLock { state in
            let before = state.ingest.quotes
            // Said even when the store fails later in the batch: the quotes before it were written.
            defer {
                let reached = state.ingest.quotes / Self.progressStep * Self.progressStep
                if reached > before { progress("\(reached) quotes read and written") }
            }
            do {
                // The first batch opens the source's transaction: from here on, the store's write
                // lock is this list's until the engine commits or rolls back.
                try transaction.writing { connection in
                    try state.ingest.take(records, into: Self.merge(in: &connection, settings: settings, now: now))
                }
                return true
            } catch {
                state.failure = SourceFailure(classifying: error)
                return false
            }
        }
    }

    /// The list's merge on the transaction's connection, begun by the first batch (or, for a list
    /// with no record, by the engine's apply).
    private static func merge(in connection: inout SourceTransaction.Connection, settings: SourceSettings, now: Int) throws -> ListMerge {
        if let merge = connection.listMerge { return merge }
        let merge = try connection.makeListMerge(source: settings.name, url: settings.url, now: now)
        connection.listMerge = merge
        return merge
    }

    /// `archive`: the quotes the list no longer has stay (a feed's entries). `readAs`: the format
    /// `auto` decided on, which the sync's line says.
    func update(validators: Validators, status: Int, archive: Bool, readAs: ListFormat.Kind? = nil) throws(SourceFailure) -> SourceUpdate {
        let ingest = writing.withLock { $0.ingest }
        let (problems, quotes) = (ingest.problems, ingest.quotes)
        // Leniently, only a list with no quote is refused; an archive removes nothing, so an empty
        // feed (every entry expired) loses no quote.
        guard ingest.verdict(acceptingEmpty: settings.allowShrink || archive) == .accepted else {
            throw SourceFailure(problems.first.map { "refusing a list with no valid quote (\($0))" }
                                ?? "refusing an empty list (allow_shrink = true accepts it)", httpStatus: status)
        }
        let settings = self.settings
        let readAs = readAs.map { "read as \($0.rawValue): " } ?? ""
        var update = SourceUpdate { counts in readAs + Plural.count(quotes, "quote") + ", " + changeSummary(counts) + problems.summary }
        update.validators = [validators]
        update.httpStatus = status
        update.skipped = problems.count
        // The merge's end, in the engine's transaction, on its connection.
        update.apply = { connection, now in
            try ingest.finish(Self.merge(in: &connection, settings: settings, now: now), archive: archive) { toRemove, stored in
                try ShrinkGuard.check(what: "quotes", removing: toRemove, of: stored, incoming: quotes,
                                      allowed: settings.allowShrink, minimumStored: 10, httpStatus: status)
            }
        }
        return update
    }
}
