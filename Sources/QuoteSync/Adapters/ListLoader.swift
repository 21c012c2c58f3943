import Glibc
import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteModels
import QuoteStore
import QuoteSystem
import Synchronization

/// Receives one list's body as it arrives, on the transfer's thread: hashes the bytes (a body
/// identical to the one applied last is never decoded) and appends them to a spool beside the
/// store (`SpoolFile`), so that no network time is spent inside the store's transaction or the
/// writer's turn. The first chunk is also read by a throwaway reader, so that a body of another
/// kind (an HTML page at a typo's URL) stops the transfer at once. Memory holds one chunk.
final class ListLoader: HashingBodySink, Sendable {
    private struct Receiving: ~Copyable {
        var hasher = FeedDigest()
        var spool: SpoolFile?
        /// The response's Content-Type (`begin`), from which the reader is made.
        var contentType: String?
        var probed = false
        /// Why the body was refused while it arrived (not JSON, not a list, the spool's disk).
        var failure: SourceFailure?
    }

    private let receiving = Mutex(Receiving())
    private let context: Context
    private let format: ListFormat
    private let makeReader: @Sendable (_ contentType: String?) throws(ListFailure) -> any ListReader

    /// What the loader keeps of the sync: where to spool, and what the merge needs.
    private struct Context: Sendable {
        let settings: SourceSettings
        let storePath: String
        let transaction: SourceTransaction
        let progress: @Sendable (String) -> Void
    }

    /// `format` is how the list is written (the configuration's, or the feed's own JSON on a
    /// spoke); `makeReader` makes its reader, told the response's Content-Type.
    init(_ context: SyncContext, format: ListFormat,
         makeReader: @escaping @Sendable (_ contentType: String?) throws(ListFailure) -> any ListReader) {
        self.context = Context(settings: context.settings, storePath: context.storePath, transaction: context.transaction,
                               progress: context.progress)
        self.format = format
        self.makeReader = makeReader
    }

    /// A loader whose reader does not depend on the response (a spoke's feed file: always JSON).
    convenience init(_ context: SyncContext, format: ListFormat, reader: any ListReader) {
        self.init(context, format: format) { _ in reader }
    }

    func begin(contentType: String?) -> Bool {
        let makeReader = self.makeReader
        return receiving.withLock { side in
            side.contentType = contentType
            // Made once here only to refuse a Content-Type that no reader takes before any byte.
            do throws(ListFailure) {
                _ = try makeReader(contentType)
                return true
            } catch {
                side.failure = SourceFailure(classifying: error)
                return false
            }
        }
    }

    func digest() -> String? { receiving.withLock { $0.hasher.finish() } }

    /// Why the body was refused while it arrived.
    var failure: SourceFailure? { receiving.withLock { $0.failure } }

    func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let (makeReader, context) = (self.makeReader, self.context)
        return receiving.withLock { side in
            guard side.failure == nil else { return false }
            side.hasher.update(chunk)
            do {
                if side.spool == nil {
                    side.spool = try Self.makeSpool(for: context.storePath)
                    // The store will be written: its check runs beside the rest of the transfer.
                    context.transaction.expectWrite()
                }
                do throws(Errno) { try side.spool?.append(chunk) } catch {
                    // The spool's own folder: $TMPDIR's when the store's took no new file.
                    throw Self.spoolFailure(error, folder: side.spool?.folder ?? Path.parent(of: context.storePath))
                }
                if !side.probed {
                    side.probed = true
                    var probe = try makeReader(side.contentType)
                    try probe.feed(chunk) { _ in }
                }
                return true
            } catch {
                side.failure = SourceFailure(classifying: error)
                return false
            }
        }
    }

    /// A spool in the store's folder (its file system, its permissions), or in $TMPDIR (else
    /// /var/tmp: disk, not memory) when a writer of the store may not make files beside it; a
    /// failure is the store's.
    private static func makeSpool(for storePath: String) throws(StoreError) -> SpoolFile {
        let folder = Path.parent(of: storePath)
        do {
            return try SpoolFile.create(in: folder)
        } catch where [EACCES, EPERM, EROFS].contains(error.code) {
            let elsewhere = Environment.absolutePath("TMPDIR") ?? "/var/tmp"
            guard let spool = try? SpoolFile.create(in: elsewhere) else { throw spoolFailure(error, folder: folder) }
            return spool
        } catch {
            throw spoolFailure(error, folder: folder)
        }
    }

    static func spoolFailure(_ error: Errno, folder: String) -> StoreError {
        switch error.code {
        case ENOSPC, EDQUOT: return .full(path: folder)
        case EACCES, EPERM, EROFS: return .readOnly(path: folder, reason: Path.writableProblem(folder) ?? "\(error)")
        default: return .io(path: folder, reason: "spooling the list: \(error)")
        }
    }

    /// Drops what was spooled after a failed transfer (the file goes with the last holder).
    func stop() {
        receiving.withLock { $0.spool = nil }
    }

    /// What the body, read whole, changes: the engine's apply decodes the spool and merges it
    /// (`SpooledList`). `contentType`: the response's, for the reader of an empty body (which no
    /// `begin` was told).
    func update(validators: Validators, status: Int, contentType: String? = nil) throws(SourceFailure) -> SourceUpdate {
        let (spool, seen, failure) = receiving.withLock { side in (side.spool, side.contentType, side.failure) }
        if let failure { throw failure }
        let reader: any ListReader
        do throws(ListFailure) {
            reader = try makeReader(seen ?? contentType)
        } catch {
            throw SourceFailure(classifying: error)
        }
        let list = SpooledList(settings: context.settings, spool: spool, reader: reader, format: format, status: status,
                               progress: context.progress)
        return list.update(validators: validators)
    }
}
