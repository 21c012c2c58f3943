import QuoteBase
import QuoteScheduling
import QuoteText
import Synchronization
@testable import QuoteStore
import Testing
@testable import QuoteSync
import TestSupport

/// The bytes a sync received reach its report and the store's running total (a streamed list's
/// too), whether the sync succeeded or failed; a 304 adds nothing.
@Suite struct FetchedBytesTests {
    func listJSON(_ count: Int) -> String {
        "[" + (1...count).map { #"{"id": \#($0), "text": "quote \#($0)", "source": "A"}"# }.joined(separator: ", ") + "]"
    }

    func total(_ harness: SyncHarness) throws -> Int? {
        try harness.database().scalarInt("SELECT fetched_bytes_total FROM sync_state WHERE source = 'custom.test'")
    }

    @Test func aStreamedListAFailureAndA304AddUp() async throws {
        let body = listJSON(50)
        let failing = Mutex(false)
        let harness = try SyncHarness { request in
            if failing.withLock({ $0 }) { return .json(#"{"message": "down"}"#, status: 503) }
            if request.headers["if-none-match"] == "\"v1\"" { return .status(304, headers: [("ETag", "\"v1\"")]) }
            return .json(body, headers: [("ETag", "\"v1\"")])
        }
        let settings = harness.settings(.custom, path: "/list.json")
        let first = await harness.sync(settings)
        #expect(first.ok, "\(first.summary)")
        #expect(first.fetchedBytes == body.utf8.count)
        #expect(try total(harness) == body.utf8.count)
        let unchanged = await harness.sync(settings)
        #expect(unchanged.httpStatus == 304 && unchanged.fetchedBytes == 0)
        failing.withLock { $0 = true }
        let failed = await harness.sync(settings)
        #expect(!failed.ok)
        #expect(failed.fetchedBytes == #"{"message": "down"}"#.utf8.count)
        #expect(try total(harness) == body.utf8.count + #"{"message": "down"}"#.utf8.count)
        let counters = try harness.database().prepare(
            "SELECT syncs_ok_total, syncs_failed_total, failing_since, last_duration_ms FROM sync_state WHERE source = 'custom.test'")
        #expect(try counters.step())
        #expect(counters.int(0) == 2 && counters.int(1) == 1)
        #expect(counters.optionalInt(2) != nil && counters.optionalInt(3) != nil)
        // The report carries it to the daemon: its JSON reads back the same.
        let echoed = try SourceReport(json: JSONParser.parse(Array(failed.json.utf8)))
        #expect(echoed?.fetchedBytes == failed.fetchedBytes)
    }
}
