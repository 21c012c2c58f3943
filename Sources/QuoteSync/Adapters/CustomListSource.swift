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
/// The body is never held in memory: it is spooled to a file beside the store as it arrives
/// (`ListLoader`), outside the writer's turn; once it is whole, and not the body applied last
/// time, the engine decodes and merges it in its transaction (`SpooledList`). Memory does not
/// grow with the list.
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
            // What was spooled goes; a transfer the loader stopped failed for the loader's reason
            // (not JSON, the spool's disk).
            loader.stop()
            throw loader.failure ?? error
        }
        switch fetched {
        case .unchanged(let stored, let status):
            // A 200 whose body hashed to the last one applied: its spool is never read.
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
