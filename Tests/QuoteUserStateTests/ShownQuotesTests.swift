import Foundation
import QuoteBase
import QuoteModels
import QuoteUserState
import Testing
import TestSupport

/// The quotes last shown, and `--once-per`'s periods read off them.
@Suite struct ShownQuotesTests {
    let scratch = TemporaryFolder()
    var folder: StateFolder { StateFolder(path: scratch.file("state/quoted")) }
    let here = SessionIdentity(boot: "boot-1", session: "3")
    let noon = 1_796_212_800  // 2026-12-02 12:00 UTC (the tests run with TZ=UTC or the machine's zone: noon is safe)

    func quote(_ id: Int) -> Quote { Quote(source: "builtin", upstreamID: String(id), text: "Quote \(id)", author: "A") }

    @Test func theLastShownIsTheLastRecordedAndTheHistoryIsBounded() throws {
        #expect(ShownQuotes.last(folder) == nil)
        try ShownQuotes.record([quote(1), quote(2)], now: noon, identity: here, folder: folder)
        let last = try #require(ShownQuotes.last(folder))
        #expect(last.kept.key == QuoteKey(source: "builtin", upstreamID: "2") && last.kept.text == "Quote 2")
        #expect(last.kept.time == noon && last.identity == here)
        for id in 3...(ShownQuotes.keptCount + 20) { try ShownQuotes.record([quote(id)], now: noon, identity: here, folder: folder) }
        let history = ShownQuotes.history(folder)
        #expect(history.count == ShownQuotes.keptCount && history.last?.kept.key.upstreamID == String(ShownQuotes.keptCount + 20))
    }

    @Test func aMangledHistoryIsReadAsFarAsItGoes() throws {
        try ShownQuotes.record([quote(1)], now: noon, identity: here, folder: folder)
        let path = folder.file(ShownQuotes.fileName)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0xFF, 0x00, 10]) + Data(#"{"source":"builtin"}"#.utf8) + Data([10]))
        try handle.close()
        #expect(ShownQuotes.last(folder)?.kept.key.upstreamID == "1")
        try ShownQuotes.record([quote(2)], now: noon, identity: here, folder: folder)
        #expect(ShownQuotes.history(folder).map(\.kept.key.upstreamID) == ["1", "2"])
    }

    /// A greeting is kept apart from the quotes shown: a bar's quotes every few minutes neither
    /// count as one nor push the day's greeting out of its history.
    @Test func greetingsAreKeptApartFromTheQuotesShown() throws {
        try ShownQuotes.record([quote(1)], now: noon, identity: here, folder: folder)
        #expect(Greetings.history(folder).isEmpty)
        try Greetings.record([quote(2)], now: noon, identity: here, folder: folder)
        for id in 3...(ShownQuotes.keptCount + 20) { try ShownQuotes.record([quote(id)], now: noon + id, identity: here, folder: folder) }
        let greetings = Greetings.history(folder)
        #expect(greetings.map(\.kept.key.upstreamID) == ["2"] && greetings.first?.kept.time == noon && greetings.first?.identity == here)
        #expect(OncePeriod.day.includes(greetings.first, now: noon + 60, identity: here))
        #expect(ShownQuotes.last(folder)?.kept.key.upstreamID == String(ShownQuotes.keptCount + 20))
        #expect(!ShownQuotes.history(folder).contains { $0.kept.key.upstreamID == "2" })
    }

    func shown(at time: Int, _ identity: SessionIdentity) -> ShownQuote {
        ShownQuote(kept: KeptQuote(quote(1), time: time), identity: identity)
    }

    @Test func oncePerDayIsTheLocalCalendarDayAndNotTheFuture() {
        let day = OncePeriod.day
        #expect(!day.includes(nil, now: noon, identity: here))
        #expect(day.includes(shown(at: noon - 60, here), now: noon, identity: here))
        #expect(!day.includes(shown(at: noon - 86_400, here), now: noon, identity: here))
        // The clock went back: a last-shown time ahead of now is not "shown today".
        #expect(!day.includes(shown(at: noon + 60, here), now: noon, identity: here))
        #expect(!day.includes(shown(at: Int.max, here), now: noon, identity: here))
        #expect(!day.includes(shown(at: Int.min, here), now: noon, identity: here))
        #expect(OncePeriod.boot.includes(shown(at: Int.min, here), now: noon, identity: here))
    }

    @Test func oncePerBootAndSession() {
        let otherBoot = SessionIdentity(boot: "boot-2", session: "3")
        let otherSession = SessionIdentity(boot: "boot-1", session: "4")
        let noSession = SessionIdentity(boot: "boot-1", session: nil)
        let nothingKnown = SessionIdentity(boot: nil, session: nil)
        #expect(OncePeriod.boot.includes(shown(at: noon - 86_400 * 30, here), now: noon, identity: otherSession))
        #expect(!OncePeriod.boot.includes(shown(at: noon - 60, otherBoot), now: noon, identity: here))
        #expect(!OncePeriod.boot.includes(shown(at: noon - 60, nothingKnown), now: noon, identity: nothingKnown))
        #expect(OncePeriod.session.includes(shown(at: noon - 60, here), now: noon, identity: here))
        #expect(!OncePeriod.session.includes(shown(at: noon - 60, here), now: noon, identity: otherSession))
        // Session ids start again at each boot.
        #expect(!OncePeriod.session.includes(shown(at: noon - 60, otherBoot), now: noon, identity: here))
        // No session known on either side: the boot stands in for it.
        #expect(OncePeriod.session.includes(shown(at: noon - 60, noSession), now: noon, identity: noSession))
        #expect(!OncePeriod.session.includes(shown(at: noon - 60, noSession), now: noon, identity: here))
        #expect(!OncePeriod.session.includes(shown(at: noon + 60, here), now: noon, identity: here))
    }

    @Test func thisProcessHasABootID() {
        let identity = SessionIdentity.current()
        #expect(identity.boot?.count == 36, "\(String(describing: identity.boot))")
    }
}
