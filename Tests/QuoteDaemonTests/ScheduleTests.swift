import QuoteConfig
import QuoteScheduling
@testable import QuoteSync
import Testing
import TestSupport

/// The scheduling policy under an injected clock (plain Unix seconds) and a seeded generator.
@Suite(.offThePool) struct ScheduleTests {
    let schedule = Schedule()
    let now = 1_800_000_000

    func source(_ kind: SourceSettings.Kind = .upbit, interval: Int = 3_600) -> SourceSettings {
        SourceSettings(name: kind.rawValue, kind: kind, enabled: true, url: "https://x", interval: interval)
    }

    @Test func successIsDueAfterTheIntervalWithTenPercentJitter() {
        var generator = SeededGenerator(state: 1)
        var seen = Set<Int>()
        for _ in 0..<2_000 {
            let next = schedule.nextDue(afterSuccessOf: source(), at: now, using: &generator)
            #expect((now + 3_240)...(now + 3_960) ~= next)
            seen.insert(next - now)
        }
        #expect(seen.count > 100, "jitter spreads the next attempts")
        #expect(seen.contains { $0 < 3_300 } && seen.contains { $0 > 3_900 })
    }

    @Test func happinessIsDueAFewMinutesAfterMidnightUTCWhateverItsInterval() {
        var generator = SeededGenerator(state: 2)
        for offset in [0, 3_600, 43_200, 86_399] {
            let at = 20_000 * 86_400 + offset
            let next = schedule.nextDue(afterSuccessOf: source(.happiness, interval: 3_600), at: at, using: &generator)
            let midnight = 20_001 * 86_400
            #expect((midnight + 300)...(midnight + 600) ~= next, "\(offset)")
        }
    }

    @Test func failuresBackOffExponentiallyWithFullJitterUpToTheCap() {
        var generator = SeededGenerator(state: 3)
        let daily = source(interval: 86_400)
        var ceilings: [Int] = []
        for failures in 1...12 {
            var largest = 0
            for _ in 0..<400 {
                let wait = schedule.nextDue(afterFailure: failures, of: daily, at: now, retryAfter: nil, using: &generator) - now
                #expect(wait >= 5)
                largest = max(largest, wait)
            }
            ceilings.append(largest)
        }
        // The ceiling doubles from 1 minute ...
        #expect(ceilings[0] <= 60 && ceilings[0] > 45)
        #expect(ceilings[1] <= 120 && ceilings[1] > 90)
        #expect(ceilings[3] <= 480 && ceilings[3] > 360)
        // ... and stops at 6 hours.
        #expect(ceilings[11] <= 21_600 && ceilings[11] > 16_000)
        // A source synced hourly never waits longer than its interval.
        let hourly = (0..<400).map { _ in schedule.nextDue(afterFailure: 20, of: source(), at: now, retryAfter: nil, using: &generator) - now }
        #expect(hourly.max()! <= 3_600)
    }

    @Test func aDayWithoutNetworkCostsAHandfulOfAttempts() {
        var generator = SeededGenerator(state: 4)
        var time = now
        var attempts = 0
        var failures = 0
        while time < now + 86_400 {
            attempts += 1
            failures += 1
            time = schedule.nextDue(afterFailure: failures, of: source(), at: time, retryAfter: nil, using: &generator)
        }
        #expect(attempts < 60, "\(attempts) attempts in a day offline")
        // The network returns: the next attempt succeeds and the backoff resets to the interval.
        let after = schedule.nextDue(afterSuccessOf: source(), at: time, using: &generator)
        #expect(after - time >= 3_240)
    }

    @Test func retryAfterIsNeverUndercut() {
        var generator = SeededGenerator(state: 5)
        for failures in 1...8 {
            let next = schedule.nextDue(afterFailure: failures, of: source(), at: now, retryAfter: now + 7_000, using: &generator)
            #expect(next >= now + 7_000)
        }
    }

    @Test func aRestartKeepsFutureDueTimesAndSpreadsOverdueOnes() {
        var generator = SeededGenerator(state: 6)
        let sources = [source(.upbit), source(.happiness), source(.breakingbad), source(.weather), source(.custom)]
        let stored = [
            "upbit": now + 1_200,          // still ahead: kept
            "happiness": now - 86_400,     // overdue by a day (machine was off)
            "breakingbad": now - 60,
            "weather": now - 10,
        ]                                  // custom: never synced
        let due = schedule.initialDue(stored: stored, sources: sources, now: now, using: &generator)
        #expect(due["upbit"] == now + 1_200)
        let overdue = ["happiness", "breakingbad", "weather", "custom"].map { due[$0]! }
        #expect(overdue.allSatisfy { $0 >= now && $0 <= now + 10 }, "caught up within seconds: \(overdue)")
        #expect(Set(overdue).count == overdue.count, "spread, not fired at once")
        // No spacing (the daemon's: its limit on syncs side by side bounds a first round): all at once.
        let together = schedule.initialDue(stored: stored, sources: sources, now: now, spacing: 0, using: &generator)
        #expect(together["upbit"] == now + 1_200)
        #expect(["happiness", "breakingbad", "weather", "custom"].allSatisfy { (now...(now + 1)).contains(together[$0] ?? -1) }, "\(together)")
    }
}
