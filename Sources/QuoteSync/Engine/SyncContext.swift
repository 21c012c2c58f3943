import QuoteBase
import QuoteConfig
import QuoteFeed
import QuoteStore
import QuoteText
import QuoteSystem
import QuoteSystemTasks

/// A body reader that also hashes what it read (SHA-256, hex): a streamed body is never held, so
/// "is this the body applied last time?" is answered on the stream.
public protocol HashingBodySink: HTTPBodySink {
    /// The SHA-256 of what was read, or nil when libcrypto could not hash.
    func digest() -> String?
}

/// What a source adapter works with during one sync: its settings, the HTTP client, the
/// per-host gate, and named read-only questions to the store (validators, what is already
/// known). Adapters never write, and hold no SQL: they return a SourceUpdate.
public final class SyncContext {
    public let settings: SourceSettings
    public let client: HTTPClient
    public let gate: HostGate
    /// The store's path, for messages about it.
    public let storePath: String
    /// The source's transaction: a custom list starts the store's check with its first bytes.
    public let transaction: SourceTransaction
    public let now: Int
    /// The time the deadline and the pauses are counted in.
    public let clock: any SleepingClock
    /// The overall deadline of this source's sync, on `clock`.
    public let deadline: Duration
    /// Requests made so far, for budgets and summaries.
    public private(set) var requests = 0
    /// Response bodies received so far (bytes), for the store's running total.
    public private(set) var fetchedBytes = 0
    /// Body digests still being computed, by URL (see `fetch`); the engine waits for them.
    private(set) var pendingDigests: [String: Task<String?, Never>] = [:]

    /// `validators` with every digest that was still being computed filled in.
    func completed(_ validators: [Validators]) async -> [Validators] {
        var result = validators
        for index in result.indices where result[index].bodySHA256 == nil {
            if let pending = pendingDigests[result[index].url] { result[index].bodySHA256 = await pending.value }
        }
        return result
    }

    /// When the last response arrived whole, on `clock` (for the phase times of a benchmark).
    public private(set) var lastResponseAt: Duration?
    /// Where progress goes ("receiving 12 of 172 MB"): a live line on a terminal, else nowhere.
    public let progress: @Sendable (String) -> Void

    init(settings: SourceSettings, client: HTTPClient, gate: HostGate, storePath: String, transaction: SourceTransaction,
         now: Int, clock: any SleepingClock = SystemClock(), progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.progress = progress
        self.transaction = transaction
        self.settings = settings
        self.client = client
        self.gate = gate
        self.storePath = storePath
        self.now = now
        self.clock = clock
        self.deadline = clock.now + .seconds(settings.deadline)
    }

    public enum Fetched {
        /// 304, or a 200 whose body is byte for byte the one applied last time.
        case unchanged(Validators, status: Int)
        case body(HTTPResponse, Validators)
    }

    /// GETs `url`. With `conditional`, sends the stored validators back and
    /// recognises an unchanged body. Any status but 200 (and 304) is a failure. With `sink`, a
    /// 200's body goes to it as it arrives (the response's `body` is then empty) and the sink
    /// says what it hashed to.
    public func fetch(_ url: String, conditional: Bool = true, streamingTo sink: (any HashingBodySink)? = nil)
        async throws(SourceFailure) -> Fetched {
        let stored = conditional ? try storedValidators(for: url) : nil
        var request = HTTPRequest(url: url, timeout: settings.timeout, maxBytes: settings.maxBytes, allowHTTP: settings.allowHTTP)
        let progress = self.progress
        request.onProgress = { received, total in
            progress("receiving " + ByteCount.human(received) + (total > 0 ? " of " + ByteCount.human(total) : ""))
        }
        request.bodySink = sink
        if let etag = stored?.etag { request.headers["If-None-Match"] = etag }
        if let lastModified = stored?.lastModified { request.headers["If-Modified-Since"] = lastModified }
        let response = try await send(request)
        var validators = Validators(url: url, etag: response.header("etag") ?? stored?.etag,
                                    lastModified: response.header("last-modified") ?? stored?.lastModified,
                                    bodySHA256: stored?.bodySHA256)
        switch response.status {
        case 304 where stored != nil:
            return .unchanged(validators, status: 304)
        case 200:
            let body = response.body
            // The digest is nil when libcrypto could not hash (a broken OpenSSL configuration):
            // the body is applied then, and no digest is kept to compare the next one with.
            guard let previous = stored?.bodySHA256, conditional else {
                if let sink {
                    validators.bodySHA256 = sink.digest()
                } else {
                    // Nothing to compare with (a first sync): the digest is only to be kept, so it
                    // is computed on another core while the body is validated.
                    pendingDigests[url] = Task.detached { FeedDigest.hex(body) }
                }
                return .body(response, validators)
            }
            let digest = sink.map { $0.digest() } ?? FeedDigest.hex(body)
            if let digest, digest == previous { return .unchanged(validators, status: 200) }
            validators.bodySHA256 = digest
            return .body(response, validators)
        default:
            throw statusFailure(response)
        }
    }

    /// Sends one request through the host gate, within the source's deadline.
    public func send(_ request: HTTPRequest) async throws(SourceFailure) -> HTTPResponse {
        let remaining = deadline - clock.now
        guard remaining > .zero else {
            throw SourceFailure("gave up: the sync took longer than its \(settings.deadline) s deadline")
        }
        var request = request
        // Whole seconds, at least one, and never past the deadline.
        request.timeout = max(1, min(request.timeout, Int(remaining.components.seconds)))
        let host = URLText.schemeAndHost(request.url)?.host ?? ""
        await gate.acquire(host)
        requests += 1
        do {
            let response = try await client.send(request)
            lastResponseAt = clock.now
            fetchedBytes = fetchedBytes.addingReportingOverflow(response.receivedBytes).overflow ? Int.max : fetchedBytes + response.receivedBytes
            await gate.release(host, remainingHeader: response.header("remaining-req"))
            return response
        } catch {
            await gate.release(host, remainingHeader: nil)
            if case .tooLarge(let limit) = error {
                // In the configuration's own words: which key, which section, what to do.
                let advice = "raise max_bytes in [source.\(settings.name)]"
                throw SourceFailure(error, message: "response larger than max_bytes (\(ByteCount.configUnits(limit))): " + advice)
            }
            throw SourceFailure(error)
        }
    }

    /// "HTTP 503", with the upstream's Retry-After and a short reason from its body when it has one.
    public func statusFailure(_ response: HTTPResponse) -> SourceFailure {
        Self.statusFailure(response, now: now)
    }

    /// `statusFailure` at `now`: whether the wait was capped is the header's, never the body's words.
    static func statusFailure(_ response: HTTPResponse, now: Int) -> SourceFailure {
        var message = "HTTP \(response.status)"
        if let reason = Self.errorMessage(in: response.body) { message += ": \(reason)" }
        let wait = RetryAfter.parse(response.header("retry-after"), now: now)
        if let wait {
            message += ", retry after \(wait.until - now) s"
            if wait.capped { message += " (capped at 7 days: the upstream asked for longer)" }
        }
        var failure = SourceFailure(message, httpStatus: response.status, retryAfter: wait?.until)
        failure.retryAfterCapped = wait?.capped ?? false
        return failure
    }

    /// The `message` of a JSON error body ({"message": ...} or {"error": {"message": ...}}), one line, short.
    static func errorMessage(in body: [UInt8]) -> String? {
        guard body.count < 65_536, let value = try? JSONParser.parse(body) else { return nil }
        let text = value["message"]?.string ?? value["error"]?["message"]?.string ?? value["error"]?.string
        guard let text else { return nil }
        let line = TerminalSanitizer.clean(text).split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? nil : String(line.prefix(160))
    }

    /// Decodes a JSON body; a body that is not JSON fails the whole source.
    public func json(_ response: HTTPResponse, what: String) throws(SourceFailure) -> JSONValue {
        do {
            return try JSONParser.parse(response.body)
        } catch {
            throw SourceFailure("\(what) is not JSON (\(error))", httpStatus: response.status)
        }
    }

    func storedValidators(for url: String) throws(SourceFailure) -> Validators? {
        let source = settings.name
        return try askStore { (knowledge) throws(StoreError) in try knowledge.validators(source: source, url: url) }
    }

    /// Asks the store what it knows (on the transaction's connection); its failure is the
    /// store's, not the upstream's.
    public func askStore<T: Sendable>(_ question: (UpstreamKnowledge) throws(StoreError) -> T) throws(SourceFailure) -> T {
        do {
            return try transaction.withConnection { (connection) throws(StoreError) -> T in
                try question(connection.knowledge)
            }
        } catch {
            throw SourceFailure.local(error)
        }
    }

    /// Pauses between requests (Breaking Bad sampling), unless cancelled.
    public func pause() async {
        guard settings.pauseMilliseconds > 0 else { return }
        try? await clock.sleep(for: .milliseconds(settings.pauseMilliseconds))
    }
}
