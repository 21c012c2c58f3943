import QuoteBase
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteSystem
import Synchronization

/// A list's body, spooled whole by its `ListLoader`, decoded and merged inside the engine's
/// transaction (so in the writer's turn, which its transfer never held). Two threads: a decoder
/// reads the spool back and hands batches of records over (`Handoff`); the transaction's thread
/// merges each through the store's one list pipeline (`ListIngest`, lenient: a bad record is left
/// out, the rest kept). On two cores decoding and SQLite's work overlap; memory holds a few
/// batches and a few counters, never the body.
struct SpooledList: Sendable {
    let settings: SourceSettings
    /// Nil for an empty body.
    let spool: SpoolFile?
    let reader: any ListReader
    /// How the list is written (`auto` decides as it reads).
    let format: ListFormat
    let status: Int
    let progress: @Sendable (String) -> Void

    /// Records per batch, and batches in flight: enough to keep both threads busy.
    static let batchSize = 512
    static let batchesInFlight = 8
    /// A progress line each time this many more quotes were written.
    private static let progressStep = 50_000

    /// What the merge found, for the summary said after it, in the same transaction.
    private struct Found: Sendable {
        var quotes = 0
        var problems = ListProblemLog()
        /// The format `auto` decided on, which the summary says.
        var readAs: ListFormat.Kind?
    }

    private final class Summary: Sendable {
        let found = Mutex(Found())
    }

    func update(validators: Validators) -> SourceUpdate {
        let summary = Summary()
        var update = SourceUpdate { counts in
            let found = summary.found.withLock { $0 }
            let readAs = found.readAs.map { "read as \($0.rawValue): " } ?? ""
            return readAs + Plural.count(found.quotes, "quote") + ", " + changeSummary(counts) + found.problems.summary
        }
        update.validators = [validators]
        update.httpStatus = status
        update.apply = { connection, now in try merge(into: &connection, now: now, summary: summary) }
        return update
    }

    /// Decodes and merges the whole list, then ends the merge: the removals, after the shrink guard.
    private func merge(into connection: inout SourceTransaction.Connection, now: Int, summary: Summary) throws -> ChangeCounts {
        let merge = try connection.makeListMerge(source: settings.name, url: settings.url, now: now)
        var ingest = ListIngest(policy: .lenient)
        let decided = try decode { (records) throws in
            // SQLite's interruption stops a statement; between batches a shutdown is seen here.
            if Task.isCancelled { throw SourceFailure("cancelled") }
            let before = ingest.quotes
            try ingest.take(records, into: merge)
            let reached = ingest.quotes / Self.progressStep * Self.progressStep
            if reached > before { progress("\(reached) quotes read and written") }
        }
        let (problems, quotes, settings, status) = (ingest.problems, ingest.quotes, settings, status)
        summary.found.withLock { $0 = Found(quotes: quotes, problems: problems, readAs: format.kind == .auto ? decided : nil) }
        let archive = format.keepsArchive(decided: decided)
        // Leniently, only a list with no quote is refused; an archive removes nothing, so an empty
        // feed (every entry expired) loses no quote.
        guard ingest.verdict(acceptingEmpty: settings.allowShrink || archive) == .accepted else {
            throw SourceFailure(problems.first.map { "refusing a list with no valid quote (\($0))" }
                                ?? "refusing an empty list (allow_shrink = true accepts it)", httpStatus: status)
        }
        var counts = try ingest.finish(merge, archive: archive) { toRemove, stored in
            try ShrinkGuard.check(what: "quotes", removing: toRemove, of: stored, incoming: quotes,
                                  allowed: settings.allowShrink, minimumStored: 10, httpStatus: status)
        }
        counts.skipped += problems.count
        return counts
    }

    /// Reads the spool through the reader, handing each batch of records to `merge` on this
    /// thread, while a thread of its own decodes the next ones; the format read.
    private func decode(_ merge: ([ListRecord]) throws -> Void) throws -> ListFormat.Kind? {
        let (spool, reader) = (self.spool, self.reader)
        let queue = Handoff<[ListRecord]>(capacity: Self.batchesInFlight)
        let decoded = Decoded()
        guard let thread = JoinableThread({
            decoded.set(Self.read(spool, with: reader) { queue.put($0) })
            queue.close()
        }) else {
            // No thread to be had: decode here, merging each batch as it fills.
            var failure: (any Error)?
            let ended = Self.read(spool, with: reader) { records in
                do {
                    try merge(records)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            return try ended.get()
        }
        defer { thread.join() }
        do {
            while let records = queue.take() { try merge(records) }
        } catch {
            // The decoder stops at its next batch.
            queue.abandon()
            throw error
        }
        thread.join()
        return try decoded.get()
    }

    /// The decoder's end, handed from its thread.
    private final class Decoded: Sendable {
        private let ended = Mutex<Ended?>(nil)
        func set(_ value: Ended) { ended.withLock { $0 = value } }
        func get() throws(SourceFailure) -> ListFormat.Kind? { try (ended.withLock { $0 } ?? .stopped).get() }
    }

    /// How a reading of the spool ended.
    private enum Ended: Sendable {
        /// Read whole: the format read.
        case read(ListFormat.Kind?)
        case failed(SourceFailure)
        /// The merge stopped taking batches (its own failure is the one said).
        case stopped

        func get() throws(SourceFailure) -> ListFormat.Kind? {
            switch self {
            case .read(let format): return format
            case .failed(let failure): throw failure
            case .stopped: throw SourceFailure("the list's merge stopped")
            }
        }
    }

    private struct Stopped: Error {}

    /// Feeds the spool to `reader` in batches of `batchSize` handed to `emit` (false: stop).
    private static func read(_ spool: SpoolFile?, with reader: any ListReader, emit: ([ListRecord]) -> Bool) -> Ended {
        var reader = reader
        var batch: [ListRecord] = []
        batch.reserveCapacity(batchSize)
        do {
            if let spool {
                try spool.readBack { (chunk) throws in
                    try reader.feed(chunk) { record in
                        batch.append(record)
                        guard batch.count == batchSize else { return }
                        guard emit(batch) else { throw Stopped() }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            }
            // The body's end may complete a last record (a fortune file's, a CSV's last row).
            try reader.finish { batch.append($0) }
            if !batch.isEmpty, !emit(batch) { return .stopped }
            return .read(reader.format)
        } catch SpoolFailure<any Error>.reading(let error) {
            return .failed(.local(ListLoader.spoolFailure(error, folder: spool?.folder ?? "")))
        } catch SpoolFailure<any Error>.handling(let error) {
            return error is Stopped ? .stopped : .failed(SourceFailure(classifying: error))
        } catch {
            return .failed(SourceFailure(classifying: error))
        }
    }
}
