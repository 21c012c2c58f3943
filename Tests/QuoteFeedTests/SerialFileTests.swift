import Foundation
@testable import QuoteFeed
import Testing
import TestSupport

/// The serial never goes back, whatever became of manifest.json: the highest one written is kept
/// beside it in `.serial`, and a record that is no serial is refused, never guessed past.
extension PublisherTests {
    /// A damaged manifest.json made the next serial the clock's, below the ones written within
    /// its second (1796292602, then 1796292601); an older manifest put in its place, too.
    @Test func aDamagedManifestNeverBringsTheSerialBack() throws {
        _ = try storeWithAList()
        let now = UnixTimeNow()
        let serials = try (0..<3).map { _ in try publisher().publish(now: now, milliseconds: now * 1_000).manifest.serial }
        try #"{"format":"#.write(toFile: folder.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        let after = try publisher().publish(now: now, milliseconds: now * 1_000).manifest.serial
        #expect(after == serials.max()! + 1, "\(serials), then \(after)")

        var older = try publisher().publish(now: now, milliseconds: now * 1_000).manifest
        let highest = older.serial
        older.serial = now * 1_000 - 60_000
        try older.json.write(toFile: folder.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        #expect(try publisher().publish(now: now, milliseconds: now * 1_000).manifest.serial == highest + 1)
    }

    @Test func aRecordThatIsNoSerialIsRefusedNamingIt() throws {
        _ = try storeWithAList()
        let first = try publisher().publish().manifest.serial
        let record = folder.file("feed/.serial")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "\(first)\n")
        for damage in ["", "12x\n", "-5\n", String(repeating: "9", count: 40)] {
            try damage.write(toFile: record, atomically: true, encoding: .utf8)
            do {
                _ = try publisher().publish()
                Issue.record("published past a record of \(damage.debugDescription)")
            } catch {
                #expect(error.reason.contains(record) && error.reason.contains("holds no serial"), "\(error)")
            }
        }
        try FileManager.default.removeItem(atPath: record)
        try FileManager.default.createSymbolicLink(atPath: record, withDestinationPath: folder.file("elsewhere"))
        #expect(throws: FeedFailure.self) { try publisher().publish() }
        // Removed, the feed goes on above its manifest.
        try FileManager.default.removeItem(atPath: record)
        #expect(try publisher().publish().manifest.serial > first)
    }

    /// The record holds the serial of the last manifest, written before it: a record above the
    /// manifest (a publish that failed after it) still counts.
    @Test func theRecordCountsWhenItIsAboveTheManifest() throws {
        _ = try storeWithAList()
        let now = UnixTimeNow()
        _ = try publisher().publish(now: now, milliseconds: now * 1_000)
        try "\(now * 1_000 + 5_000)\n".write(toFile: folder.file("feed/.serial"), atomically: true, encoding: .utf8)
        #expect(try publisher().publish(now: now, milliseconds: now * 1_000).manifest.serial == now * 1_000 + 5_001)
    }
}
