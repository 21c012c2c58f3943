import QuoteBase
import QuoteHealth
import QuoteStore
import QuoteSystem
import Testing
@testable import QuoteDaemon
import TestSupport

/// Readings of the store's health taken off the daemon's actor, which come back in any order.
@Suite(.offThePool) struct HealthReadingTests {
    let folder = TemporaryFolder()

    func reading(syncs: Int, order: ReadingOrder, textfile: MetricsTextfile) -> HealthReading {
        HealthReading(scope: HealthScope(sources: [.init(name: "upbit", intervalSeconds: 3_600)]),
                      daemon: DaemonHealth(startTime: 1_700_000_000, syncsTotal: syncs), textfile: textfile,
                      logger: Logger(level: .error, write: { _ in }), order: order)
    }

    func syncsWritten() throws -> String? {
        String(decoding: try FileReader.read(folder.file("quoted.prom"), limit: 1 << 20), as: UTF8.self)
            .split(separator: "\n").first { $0.hasPrefix("quoted_daemon_syncs_total ") }.map(String.init)
    }

    /// Two syncs end together: the reading made for the second is taken first. The file's counter
    /// never goes back, and the later reading is the one numbered later.
    @Test func aReadingMadeEarlierButTakenLaterNeverWritesAnOlderCounter() throws {
        let store = try Store(path: folder.file("q.db"), access: .write)
        let order = ReadingOrder(), textfile = MetricsTextfile(path: folder.file("quoted.prom"))
        let second = reading(syncs: 6, order: order, textfile: textfile), first = reading(syncs: 5, order: order, textfile: textfile)
        let taken = try #require(second.take(from: store))
        #expect(try syncsWritten() == "quoted_daemon_syncs_total 6")
        let late = try #require(first.take(from: store))
        #expect(try syncsWritten() == "quoted_daemon_syncs_total 6", "a counter that went back would read as a restart to rate()")
        #expect(late.sequence > taken.sequence)
    }
}
