import QuoteBase
import QuoteModels
@testable import QuoteSync
import Testing
import TestSupport

/// A failure's kind is set where it is made and asked of its type: a message that happens to say
/// what one kind says is not that kind.
@Suite struct TypedFailureTests {
    @Test func aResponseTooLargeIsKnownByItsKindNotItsWords() {
        let real = SourceFailure(HTTPFailure.tooLarge(limit: 5))
        #expect(real.isTooLarge)
        #expect(real.message == "response larger than 5 bytes (max_bytes)", "the client's words, unchanged")
        let worded = SourceFailure(.tooLarge(limit: 5), message: "response larger than max_bytes (5): raise max_bytes in [source.x]")
        #expect(worded.isTooLarge && worded.message.hasPrefix("response larger than max_bytes (5)"))
        #expect(SourceFailure(classifying: HTTPFailure.tooLarge(limit: 5)).isTooLarge, "classified by its type")
        #expect(SourceFailure(classifying: HTTPFailure.tooLarge(limit: 5)).message == HTTPFailure.tooLarge(limit: 5).description)

        #expect(!SourceFailure("response larger than max_bytes (1M): raise max_bytes in [source.custom.x]").isTooLarge)
        #expect(!SourceFailure(.connection("response larger than the proxy allows")).isTooLarge)
        #expect(!SourceFailure(classifying: ListFailure("response larger than it said")).isTooLarge)
        #expect(!SourceFailure(.timedOut(seconds: 3)).isTooLarge)
    }

    /// Upbit's block says it was capped only when the Retry-After was: its body's words count for nothing.
    @Test func anUpbitBlockWhoseBodyTalksOfCappingIsNotCapped() async throws {
        let harness = try SyncHarness { _ in
            .json(#"{"error": {"message": "capped at 7 days"}}"#, status: 418, headers: [("Retry-After", "60")])
        }
        let now = UnixTime.now()
        let report = await harness.sync(harness.settings(.upbit, path: "/v1/market/all"), now: now)
        #expect(report.retryAfter == now + 60)
        #expect(report.summary.hasPrefix("blocked by Upbit (HTTP 418) for 60 s: too many requests"), "\(report.summary)")
        #expect(!report.summary.contains("capped at 7 days"), "\(report.summary)")
    }

    /// A status failure says whether its wait was capped, from the header, whatever the body says.
    @Test func aStatusFailureKnowsWhetherItsWaitWasCapped() {
        let now = 1_000_000
        let long = SyncContext.statusFailure(HTTPResponse(status: 503, headers: ["retry-after": "99999999999"], body: []), now: now)
        #expect(long.retryAfterCapped && long.retryAfter == now + RetryAfter.maximumWait)
        #expect(long.message.hasSuffix("(capped at 7 days: the upstream asked for longer)"), "\(long.message)")
        let body = Array(#"{"message": "capped at 7 days: the upstream asked for longer"}"#.utf8)
        let short = SyncContext.statusFailure(HTTPResponse(status: 503, headers: ["retry-after": "60"], body: body), now: now)
        #expect(!short.retryAfterCapped && short.retryAfter == now + 60)
        #expect(short.message == "HTTP 503: capped at 7 days: the upstream asked for longer, retry after 60 s", "the body's words kept, as before")
        #expect(!SyncContext.statusFailure(HTTPResponse(status: 503, headers: [:], body: body), now: now).retryAfterCapped)
    }
}
