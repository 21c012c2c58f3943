import Foundation
import QuoteHealth
import Testing

/// A hub's feed metrics come from the manifest it published; anything else reads as no feed.
@Suite struct HubManifestTests {
    @Test func thePublishedManifestIsReadBackAndGarbageIsNoFeed() throws {
        let folder = NSTemporaryDirectory() + "hub-manifest-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(HubManifest.read(folder: folder) == nil, "nothing published yet")
        let manifest = #"{"format": 1, "name": "feed.example.org", "serial": 42, "generated": 1000, "valid_until": 605800, "next_keys": [], "sources": []}"#
        try manifest.write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
        #expect(HubManifest.read(folder: folder) == FeedHealth(name: "feed.example.org", serial: 42, generated: 1000, validUntil: 605800))
        try "{\"name\": 1".write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
        #expect(HubManifest.read(folder: folder + "/") == nil)
    }
}
