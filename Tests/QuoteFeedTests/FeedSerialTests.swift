@testable import QuoteFeed
import Testing

/// The serial's unit: milliseconds, with the seconds of older hubs counted as thousands of them.
@Suite struct FeedSerialTests {
    @Test func aSecondsSerialCountsAsThatManyThousandMilliseconds() {
        #expect(FeedSerial.milliseconds(1_800_000_400) == 1_800_000_400_000)
        #expect(FeedSerial.milliseconds(FeedSerial.secondsBelow) == FeedSerial.secondsBelow)
        #expect(FeedSerial.milliseconds(1_800_000_000_123) == 1_800_000_000_123)
        #expect(FeedSerial.milliseconds(-1) == -1)
        #expect(FeedSerial.milliseconds(Int.max - 1) == Int.max - 1)
    }

    @Test func olderComparesAcrossTheUnits() {
        // A milliseconds serial above a seconds one as a number, below it as a time: older.
        #expect(FeedSerial.isOlder(1_800_000_000_000, than: 1_800_000_400))
        #expect(!FeedSerial.isOlder(1_800_000_400_001, than: 1_800_000_400))
        #expect(FeedSerial.isOlder(1_800_000_399, than: 1_800_000_400_000))
        #expect(!FeedSerial.isOlder(7, than: 7))
    }

    @Test func theNextSerialIsTheClockOrOneMore() {
        #expect(FeedSerial.next(after: nil, now: 1_800_000_000_000) == 1_800_000_000_000)
        #expect(FeedSerial.next(after: 1_800_000_000_000, now: 1_800_000_000_000) == 1_800_000_000_001)
        #expect(FeedSerial.next(after: 1_799_999_999_000, now: 1_800_000_000_000) == 1_800_000_000_000)
        #expect(FeedSerial.next(after: 1_800_000_400, now: 1_800_000_000_000) == 1_800_000_400_001)
        #expect(FeedSerial.next(after: Int.max - 2, now: 1_800_000_000_000) == Int.max - 1)
        #expect(FeedSerial.next(after: Int.max - 1, now: 1_800_000_000_000) == nil)
        #expect(FeedSerial.next(after: Int.max, now: 1_800_000_000_000) == nil)
    }

    @Test func theClockIsMilliseconds() {
        let reading = FeedSerial.now()
        #expect(reading > FeedSerial.secondsBelow && reading < 253_402_300_799_999)
    }
}
