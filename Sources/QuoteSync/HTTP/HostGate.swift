import QuoteSystem
import QuoteSystemTasks

/// One request at a time per host, and no more requests in a second than the
/// host said it allows (Upbit's `Remaining-Req: group=market; min=600; sec=9`).
/// The second is counted on an injected clock, so a test crosses it without waiting.
public actor HostGate {
    private struct HostState {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Requests left in the current second, as the host last reported.
        var remaining: Int?
        var secondStarted: Duration
    }

    private var hosts: [String: HostState] = [:]
    private let clock: any SleepingClock

    public init(clock: any SleepingClock = SystemClock()) {
        self.clock = clock
    }

    /// Waits for the host to be free (and for a new second when its budget is spent).
    public func acquire(_ host: String) async {
        if hosts[host] == nil { hosts[host] = HostState(secondStarted: clock.now) }
        if hosts[host]!.busy {
            // release() hands the host straight to the first waiter: it stays busy.
            await withCheckedContinuation { continuation in hosts[host]!.waiters.append(continuation) }
        } else {
            hosts[host]!.busy = true
        }
        let state = hosts[host]!
        if let remaining = state.remaining, remaining <= 0 {
            let nextSecond = state.secondStarted + .seconds(1)
            if nextSecond > clock.now { try? await clock.sleep(until: nextSecond) }
            hosts[host]!.remaining = nil
        }
    }

    /// Frees the host, remembering what it said of its rate limit.
    public func release(_ host: String, remainingHeader: String?) {
        if let remaining = Self.secondsBudget(remainingHeader) {
            hosts[host]!.remaining = remaining
            hosts[host]!.secondStarted = clock.now
        }
        if hosts[host]!.waiters.isEmpty {
            hosts[host]!.busy = false
        } else {
            hosts[host]!.waiters.removeFirst().resume()
        }
    }

    /// `sec=N` from `Remaining-Req: group=market; min=600; sec=9`.
    static func secondsBudget(_ header: String?) -> Int? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { Substring($0).trimmingASCIIWhitespace() }
            // The upstream's number: a budget beyond 10,000 a second is no budget at all.
            if pair.count == 2, pair[0] == "sec", let budget = Int(pair[1]) { return min(max(budget, 0), 10_000) }
        }
        return nil
    }
}
