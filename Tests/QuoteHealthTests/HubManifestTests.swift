import Foundation
import QuoteHealth
import QuoteModels
import Testing

/// A hub's feed metrics come from the manifest it published, read by the manifest's one reader
/// (QuoteModels' `ManifestHeader`); anything else reads as no feed.
@Suite struct HubManifestTests {
    func hubFeeds(_ folder: String) -> [FeedHealth] {
        MetricsSnapshot(version: "1", scope: HealthScope(sources: [], publishFolder: folder), sources: [], spokeFeed: nil, daemon: nil).hubFeeds
    }

    @Test func thePublishedManifestIsReadBackAndGarbageIsNoFeed() throws {
        let folder = NSTemporaryDirectory() + "hub-manifest-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(hubFeeds(folder) == [], "nothing published yet")
        let manifest = #"{"format": 2, "name": "feed.example.org", "serial": 42, "generated": 1000, "valid_until": 605800, "next_keys": [], "sources": []}"#
        try manifest.write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
        #expect(hubFeeds(folder) == [FeedHealth(name: "feed.example.org", serial: 42, generated: 1000, validUntil: 605800)])
        #expect(hubFeeds(folder + "/") == hubFeeds(folder))
        try "{\"name\": 1".write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
        #expect(hubFeeds(folder + "/") == [])
    }

    /// What no spoke would apply (another format, a time out of range) is no hub's feed either:
    /// both read the head by the same rules.
    @Test func aManifestNoSpokeWouldReadIsNoFeed() throws {
        let folder = NSTemporaryDirectory() + "hub-manifest-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for manifest in [
            #"{"format": 1, "name": "f", "serial": 42, "generated": 1000, "valid_until": 605800, "sources": []}"#,
            #"{"format": 2, "name": "f", "serial": 42, "generated": 1000, "valid_until": 999, "sources": []}"#,
            #"{"format": 2, "name": "f", "serial": 42, "generated": 1000, "valid_until": 605800}"#,
        ] {
            try manifest.write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
            #expect(hubFeeds(folder) == [], "\(manifest)")
        }
    }
}
