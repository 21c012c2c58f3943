@testable import QuoteDaemon
import QuoteScheduling
import Testing
import TestSupport

/// A client waiting for a report is answered once: by the daemon, or by its own task's
/// cancellation handler (no task started for it), except while the daemon stops, which answers all.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ReportWaitersTests {
    let report = SourceReport(source: "custom.x", ok: true, summary: "done", seconds: 0)

    /// A waiter for `ticket`, registered as `Daemon.report` registers it, on a thread of its own.
    func waiting(_ waiters: ReportWaiters, for ticket: Int) -> Task<SourceReport?, Never> {
        Task(executorPreference: ownThreads) {
            await withCheckedContinuation { (waiter: ReportWaiters.Waiter) in waiters.register(ticket, waiter) }
        }
    }

    @Test func anAnsweredWaiterHasItsReport() async {
        let waiters = ReportWaiters()
        let waiter = waiting(waiters, for: 1)
        #expect(await Waiting.until { waiters.isWaiting(1) })
        #expect(waiters.answer(1, with: report))
        #expect(await waiter.value == report)
        #expect(!waiters.answer(1, with: report), "answered once")
    }

    /// The sync ended between the daemon's look at the ticket and its waiter's registering (which
    /// may run off the actor): the waiter takes the report as it comes instead of waiting forever.
    @Test func aReportThatCameBeforeItsWaiterIsTaken() async {
        let waiters = ReportWaiters()
        #expect(!waiters.answer(4, with: report), "nobody waits yet")
        #expect(await waiting(waiters, for: 4).value == report)
        #expect(!waiters.isWaiting(4))
        // A report nobody came for is forgotten with its ticket.
        #expect(!waiters.answer(5, with: report))
        waiters.forget(5)
        waiters.cancel(5)
        #expect(await waiting(waiters, for: 5).value == nil)
    }

    @Test func aCancelledWaiterIsAnsweredAtOnce() async {
        let waiters = ReportWaiters()
        let waiter = waiting(waiters, for: 2)
        #expect(await Waiting.until { waiters.isWaiting(2) })
        waiters.cancel(2)
        #expect(await waiter.value == nil)
        #expect(!waiters.isWaiting(2) && !waiters.answer(2, with: report))
        // Cancelled before its waiter came: answered as it comes.
        waiters.cancel(3)
        #expect(await waiting(waiters, for: 3).value == nil)
        #expect(!waiters.isWaiting(3))
    }

    @Test func whileTheDaemonStopsACancelledWaiterWaitsForItsAnswer() async {
        let waiters = ReportWaiters()
        waiters.daemonStops()
        let waiter = waiting(waiters, for: 4)
        #expect(await Waiting.until { waiters.isWaiting(4) })
        waiters.cancel(4)
        #expect(waiters.isWaiting(4))
        #expect(waiters.answer(4, with: report))
        #expect(await waiter.value == report)
    }
}
