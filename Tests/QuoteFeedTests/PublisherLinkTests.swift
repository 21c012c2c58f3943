import Foundation
@testable import QuoteFeed
import QuoteConfig
import Testing
import TestSupport

/// The publisher writes, touches and prunes the feed's own files only: a link planted in the
/// feed folder is replaced or refused, never followed, and a damaged file is written again.
extension PublisherTests {
    func publisher() -> Publisher {
        Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: folder.file("quotes.db"), retention: 7_200)
    }

    static let longAgo = Date(timeIntervalSince1970: 1_000_000_000)

    func modified(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    /// Publish said "no file changed", signed the link's target, touched it, and nginx served it.
    @Test func aLinkInPlaceOfAFileIsReplacedNotFollowed() throws {
        _ = try storeWithAList()
        let first = try publisher().publish()
        let entry = try #require(first.manifest.entry(named: "custom.x"))
        let outside = folder.write("outside.json", #"[{"id": 1, "text": "not the feed's"}]"#)
        try FileManager.default.setAttributes([.modificationDate: Self.longAgo], ofItemAtPath: outside)
        let file = folder.file("feed/" + entry.file)
        for path in [file, file + ".gz"] {
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside)
        }
        let again = try publisher().publish()
        #expect(again.written == ["custom.x"], "the files were written again")
        #expect(again.manifest.entry(named: "custom.x") == entry)
        for path in [file, file + ".gz"] {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil, "\(path) is a file again")
        }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(bytes.count == entry.size && FeedDigest.hex(bytes) == entry.sha256)
        #expect(FeedFileCheck.inflates(file + ".gz", to: entry.size, sha256: entry.sha256))
        #expect(try modified(outside) == Self.longAgo, "the file outside the feed was not touched")
        #expect(try String(contentsOfFile: outside, encoding: .utf8).contains("not the feed's"))
        // Once whole, an unchanged source changes nothing.
        #expect(try publisher().publish().written.isEmpty)
    }

    /// A damaged twin stayed until the data changed (a re-signing keeps every entry), and every
    /// spoke taking gzip failed meanwhile; a linked one too.
    @Test func aDamagedTwinIsWrittenAgainWhenItsSourceIsKept() throws {
        _ = try storeWithAList()
        let entry = try #require(try publisher().publish().manifest.entry(named: "custom.x"))
        let twin = folder.file("feed/" + entry.file + ".gz")
        let good = try Data(contentsOf: URL(fileURLWithPath: twin))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: twin))
        let resigned = try publisher().publish(only: [])
        #expect(resigned.manifest.entry(named: "custom.x") == entry && resigned.written == ["custom.x"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: twin)) == good)

        let outside = folder.write("outside.gz", "not a twin")
        try FileManager.default.removeItem(atPath: twin)
        try FileManager.default.createSymbolicLink(atPath: twin, withDestinationPath: outside)
        _ = try publisher().publish(only: [])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: twin)) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: twin)) == good)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "not a twin")
        // Whole, a kept source is left as it is.
        #expect(try publisher().publish(only: []).written.isEmpty)
    }

    /// A by-hash linked to another folder: publish wrote through it and "pruned 3 old files" there.
    @Test func aLinkedByHashFolderIsRefused() throws {
        _ = try storeWithAList()
        let elsewhere = folder.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let digest = String(repeating: "ab", count: 32)
        let names = ["\(digest).json", "\(digest).json.gz", "notes.txt"]
        for name in names {
            try FileManager.default.setAttributes([.modificationDate: Self.longAgo], ofItemAtPath: folder.write("elsewhere/" + name, "someone's"))
        }
        try FileManager.default.createDirectory(atPath: folder.file("feed"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("feed/by-hash"), withDestinationPath: elsewhere)
        do {
            _ = try publisher().publish()
            Issue.record("published through a linked by-hash")
        } catch {
            #expect(error.reason.contains(folder.file("feed/by-hash")) && error.reason.contains("symbolic link"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).sorted() == names.sorted())
        #expect(!FileManager.default.fileExists(atPath: folder.file("feed/manifest.json")))
    }

    /// A dangling link in place of the lock file: the lock was created where it pointed.
    @Test func aLinkedLockFileCreatesNothing() throws {
        _ = try storeWithAList()
        try FileManager.default.createDirectory(atPath: folder.file("feed"), withIntermediateDirectories: true)
        let target = folder.file("made-by-the-lock")
        try FileManager.default.createSymbolicLink(atPath: folder.file("feed/.lock"), withDestinationPath: target)
        do {
            _ = try publisher().publish()
            Issue.record("published with a linked lock file")
        } catch {
            #expect(error.reason.contains(folder.file("feed/.lock")) && error.reason.contains("symbolic link"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    /// Pruning looks at the names the feed writes only: anything else in by-hash stays, however old.
    @Test func pruningLeavesWhatTheFeedDidNotWrite() throws {
        _ = try storeWithAList()
        let now = UnixTimeNow()
        _ = try publisher().publish(now: now)
        let notes = folder.write("feed/by-hash/notes.txt", "mine")
        try FileManager.default.setAttributes([.modificationDate: Self.longAgo], ofItemAtPath: notes)
        #expect(try publisher().publish(now: now + 7_201).pruned == 0)
        #expect(FileManager.default.fileExists(atPath: notes))

        let digest = String(repeating: "0f", count: 32)
        #expect(Publisher.writtenName("\(digest).json") == "\(digest).json")
        #expect(Publisher.writtenName("\(digest).json.gz") == "\(digest).json")
        #expect(Publisher.writtenName(".json.12.34.tmp") == ".json.12.34.tmp" && Publisher.writtenName(".gz.12.34.tmp") == ".gz.12.34.tmp")
        for name in ["notes.txt", "x.json", "\(digest).json.bak", ".lock", "\(digest.uppercased()).json", ".ssh"] {
            #expect(Publisher.writtenName(name) == nil, "\(name)")
        }
    }
}
