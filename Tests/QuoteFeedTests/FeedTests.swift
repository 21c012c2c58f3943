import Foundation
import QuoteConfig
@testable import QuoteFeed
@testable import QuoteStore
import QuoteModels
import QuoteText
import Testing
import QuoteFormats
import TestSupport


let signify = "/usr/bin/signify-openbsd"

/// Signatures in signify's format through libsodium, checked against the real tool both ways.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: signify)), .timeLimit(.minutes(5))) struct SignifyTests {
    let folder = TemporaryFolder("quoted-signify")

    func keys(_ name: String = "hub") throws -> (public: String, secret: String) {
        let (pub, sec) = (folder.file("\(name).pub"), folder.file("\(name).sec"))
        #expect(try runTool(signify, ["-G", "-n", "-p", pub, "-s", sec]) == 0)
        return (pub, sec)
    }

    @Test func whatWeSignTheToolVerifiesAndTheOtherWayRound() throws {
        let (pub, sec) = try keys()
        let message = folder.write("manifest.json", #"{"format":1,"serial":7}"# + "\n")
        let secret = try Signify.secretKey(file: sec)
        let signature = Signify.sign(Array(try Data(contentsOf: URL(fileURLWithPath: message))), with: secret, comment: "test")
        folder.write("manifest.json.sig", signature)
        #expect(try runTool(signify, ["-V", "-q", "-p", pub, "-m", message]) == 0)

        // The tool's own signature verifies here; a changed byte or another key does not.
        #expect(try runTool(signify, ["-S", "-s", sec, "-m", message, "-x", folder.file("tool.sig")]) == 0)
        let toolSignature = try String(contentsOfFile: folder.file("tool.sig"), encoding: .utf8)
        let key = try Signify.publicKey(file: pub)
        try Signify.verify(Array(#"{"format":1,"serial":7}"#.utf8) + [10], signatureFile: toolSignature, key: key)
        #expect(throws: Signify.Failure(reason: "signature does not verify")) {
            try Signify.verify(Array(#"{"format":1,"serial":8}"#.utf8) + [10], signatureFile: toolSignature, key: key)
        }
        let other = try keys("other")
        #expect(throws: Signify.Failure(reason: "signed with another key")) {
            try Signify.verify(Array(#"{"format":1,"serial":7}"#.utf8) + [10], signatureFile: toolSignature,
                               key: Signify.publicKey(file: other.public))
        }
    }

    /// The inline form spokes fetch (one file, so no publish can fall between signature and manifest)
    /// is signify's `-e`: the tool reads ours, and ours reads the tool's, with the right key only.
    @Test func anEmbeddedSignatureIsSignifysOwn() throws {
        let (pub, sec) = try keys()
        let message = Array(#"{"format":2,"serial":7}"#.utf8) + [10]
        let secret = try Signify.secretKey(file: sec)
        let signed = folder.write("manifest.\(secret.number).signed", "")
        try Data(Signify.embed(message, with: secret, comment: "test")).write(to: URL(fileURLWithPath: signed))
        #expect(try runTool(signify, ["-V", "-e", "-q", "-p", pub, "-x", signed, "-m", folder.file("out.json")]) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("out.json"))) == Data(message))

        let plain = folder.write("plain.json", String(decoding: message, as: UTF8.self))
        #expect(try runTool(signify, ["-S", "-e", "-s", sec, "-m", plain, "-x", folder.file("tool.signed")]) == 0)
        let toolSigned = Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("tool.signed"))))
        let key = try Signify.publicKey(file: pub)
        #expect(try Signify.open(embedded: toolSigned, keys: [key]) == message)
        #expect(Signify.signer(ofEmbedded: toolSigned) == key.number)
        let other = try Signify.publicKey(file: keys("other").public)
        #expect(throws: Signify.Failure(reason: "signed with key \(key.number), which this spoke does not trust")) {
            try Signify.open(embedded: toolSigned, keys: [other])
        }
        var tampered = toolSigned
        tampered[tampered.count - 3] ^= 1
        #expect(throws: Signify.Failure(reason: "signature does not verify")) { try Signify.open(embedded: tampered, keys: [other, key]) }
        #expect(throws: Signify.Failure.self) { try Signify.open(embedded: Array("untrusted comment: x\n".utf8), keys: [key]) }
        #expect(throws: Signify.Failure.self) { try Signify.open(embedded: [], keys: [key]) }
    }

    @Test(arguments: ["", "untrusted comment: x\n", "untrusted comment: x\n!!!!\n", "no comment\nRWQ=\n"])
    func malformedFilesAreRefused(text: String) {
        #expect(Signify.decode(text) == nil || Signify.decode(text)!.count < 10)
        let path = folder.write("bad.pub", text)
        #expect(throws: Signify.Failure.self) { try Signify.publicKey(file: path) }
    }

    @Test func aKeyWithAPassphraseIsRefusedWithAReason() throws {
        let (_, sec) = try keys()
        var bytes = try #require(Signify.decode(String(contentsOfFile: sec, encoding: .utf8)))
        bytes[7] = 42  // kdfrounds != 0: the key is encrypted
        folder.write("locked.sec", "untrusted comment: x\n" + Signify.base64(bytes) + "\n")
        #expect(throws: Signify.Failure.self) { try Signify.secretKey(file: folder.file("locked.sec")) }
    }
}

@Suite struct ManifestTests {
    let digest = String(repeating: "ab", count: 32)

    func entry(_ name: String = "custom.x", file: String? = nil) -> String {
        #"{"name":"\#(name)","kind":"\#(SourceName.kind(of: name)?.rawValue ?? "custom")","file":"\#(file ?? "by-hash/\(digest).json")","size":10,"sha256":"\#(digest)","rows":1,"synced":5}"#
    }

    @Test func aManifestSurvivesItsOwnRoundTrip() throws {
        let key = try #require(Signify.PublicKey(base64: "RWQBAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fICEiIyQlJico"))
        let manifest = Manifest(name: "example.org/quotes", serial: 3, generated: 100, validUntil: 700, nextKeys: [key.base64], sources: [
            Manifest.Entry(name: "upbit", kind: "upbit", file: "by-hash/\(digest).json", size: 1, sha256: digest, rows: 2, synced: nil)])
        #expect(try Manifest.parse(Array(manifest.json.utf8)) == manifest)
        #expect(key.number == "0102030405060708")
        // A hub's metrics read the head of what the publisher wrote with the same reader.
        #expect(try ManifestHeader.parse(Array(manifest.json.utf8)).header == manifest.header)
        #expect(manifest.header == ManifestHeader(name: "example.org/quotes", serial: 3, generated: 100, validUntil: 700))
    }

    /// Whatever a hostile or broken hub serves, the spoke is not led astray.
    static let head = #""format":2,"name":"f","serial":1,"generated":1,"valid_until":9,"next_keys":[]"#

    @Test(arguments: [
        ("", "not JSON"), ("[]", "format"), (#"{"format":1,"serial":1,"generated":1,"sources":[]}"#, "format"),
        (#"{"format":2,"name":"f","serial":-1,"generated":1,"valid_until":9,"next_keys":[],"sources":[]}"#, "lacks"),
        (#"{"format":2,"name":"f","serial":1,"generated":1,"next_keys":[],"sources":[]}"#, "valid_until"),
        (#"{"format":2,"name":"f","serial":1,"generated":10,"valid_until":9,"next_keys":[],"sources":[]}"#, "out of range"),
        (#"{"format":2,"serial":1,"generated":1,"valid_until":9,"next_keys":[],"sources":[]}"#, "names no feed"),
        (#"{"format":2,"name":"","serial":1,"generated":1,"valid_until":9,"next_keys":[],"sources":[]}"#, "names no feed"),
        (#"{"format":2,"name":"a\u0007b","serial":1,"generated":1,"valid_until":9,"next_keys":[],"sources":[]}"#, "names no feed"),
        (#"{"format":2,"name":"f","serial":1,"generated":1,"valid_until":9,"next_keys":["nope"],"sources":[]}"#, "next_keys"),
        (#"{"format":2,"name":"f","serial":1,"generated":1,"valid_until":9,"sources":[]}"#, "next_keys"),
        ("{" + head + #","sources":[{}]}"#, "malformed"),
        (#"{"format":2,"name":"f","serial":9223372036854775807,"generated":1,"valid_until":9,"next_keys":[],"sources":[]}"#, "out of range"),
        (#"{"format":2,"name":"f","serial":1,"generated":-9223372036854775808,"valid_until":9,"next_keys":[],"sources":[]}"#, "out of range"),
        ("PATHTRICK", "malformed"), ("BUILTIN", "malformed"), ("TWICE", "twice"),
        // A member named twice (the first one was taken silently).
        ("SERIALTWICE", #"ambiguous: line 1, column 93: member "serial" appears twice"#), ("SIZETWICE", #"member "size" appears twice"#),
    ])
    func hostileManifestsAreRefused(text: String, expected: String) {
        var body = text
        if text == "PATHTRICK" { body = "{" + Self.head + #","sources":[\#(entry(file: "../../etc/passwd"))]}"# }
        if text == "BUILTIN" { body = "{" + Self.head + #","sources":[\#(entry("builtin"))]}"# }
        if text == "TWICE" { body = "{" + Self.head + #","sources":[\#(entry()),\#(entry())]}"# }
        if text == "SERIALTWICE" { body = "{" + Self.head + #","sources":[],"serial":99}"# }
        if text == "SIZETWICE" { body = "{" + Self.head + #","sources":[\#(entry().dropLast()),"size":11}]}"# }
        do {
            _ = try Manifest.parse(Array(body.utf8))
            Issue.record("accepted: \(body)")
        } catch {
            #expect(error.reason.contains(expected), "\(error)")
        }
    }

    @Test func aManifestOverAMebibyteIsRefusedUnread() {
        #expect(throws: FeedFailure("the manifest is larger than 1 MiB")) {
            try Manifest.parse([UInt8](repeating: 32, count: Manifest.maximumBytes + 1))
        }
    }
}

/// The hub's publisher: content-addressed files, a manifest written last, an ETag that always changes.
@Suite struct PublisherTests {
    let folder = TemporaryFolder("quoted-publish")

    func storeWithAList() throws -> String {
        let path = folder.file("quotes.db")
        let store = try Store(path: path, access: .write)
        try store.write { (transaction) throws(StoreError) in
            let writer = transaction.quotes
            try writer.ensureSource("custom.x", url: "https://user:pw@example.com/list?key=SECRET", now: 1)
            _ = try writer.apply([Quote(source: "custom.x", upstreamID: "1", text: "one \u{1B}[31m \"quoted\"", author: "A", category: nil, lang: "en")],
                                 to: "custom.x", removeMissing: true, now: 1)
        }
        return path
    }

    @Test func theFeedHoldsEachSourceInItsAdaptersFormatAndNoSecret() throws {
        let store = try storeWithAList()
        let publisher = Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: store, retention: 7_200)
        let outcome = try publisher.publish(now: 1_000)
        let entry = try #require(outcome.manifest.entry(named: "custom.x"))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("feed/" + entry.file))))
        #expect(bytes.count == entry.size && FeedDigest.hex(bytes) == entry.sha256 && entry.rows == 1)
        // The custom-list format, which the custom-list adapter (and quotectl import) reads.
        var reader = CustomList.Reader(source: "custom.x")
        var texts: [String] = []
        try bytes.withUnsafeBytes { chunk in
            try reader.feed(chunk) { record in if case .quote(let entry) = record { texts.append(entry.quote.text) } }
        }
        try reader.finish { _ in }
        #expect(texts == ["one \u{1B}[31m \"quoted\""])
        #expect(FileManager.default.fileExists(atPath: folder.file("feed/" + entry.file + ".gz")))
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.file("feed")) {
            let text = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: folder.file("feed/" + name)))) ?? Data(), as: UTF8.self)
            #expect(!text.contains("SECRET") && !text.contains("pw@"), "\(name)")
        }
    }

    /// nginx's ETag is the modification time in whole seconds plus the size: two manifests of
    /// one length within one second must still differ in it.
    @Test func twoManifestsInOneSecondNeverShareAnETag() throws {
        let store = try storeWithAList()
        let publisher = Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: store, retention: 7_200)
        var seen = Set<String>()
        for _ in 0..<5 {
            _ = try publisher.publish(now: 1_000)
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("feed/manifest.json"))
            let seconds = Int((attributes[.modificationDate] as! Date).timeIntervalSince1970)
            let size = attributes[.size] as! Int
            #expect(seen.insert("\(String(seconds, radix: 16))-\(String(size, radix: 16))").inserted)
        }
    }

    /// A hub publishing many times a second (every source of a start syncing at once) keeps its
    /// serial within milliseconds of its clock, each above the last: seconds ran 400 s ahead.
    @Test func serialsWrittenWithinOneSecondStayAtTheClock() throws {
        let store = try storeWithAList()
        let publisher = Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: store, retention: 7_200)
        let before = Int(Date().timeIntervalSince1970 * 1_000) - 1
        var serials: [Int] = []
        for _ in 0..<5 { serials.append(try publisher.publish().manifest.serial) }
        let after = Int(Date().timeIntervalSince1970 * 1_000) + 1
        #expect(zip(serials, serials.dropFirst()).allSatisfy { $0 < $1 }, "\(serials)")
        #expect(serials.allSatisfy { (before...(after + serials.count)).contains($0) }, "\(serials), the clock \(before)...\(after)")
    }

    /// A hub whose folder was lost starts at its clock, above every serial it wrote, however
    /// many it wrote within the second before.
    @Test func aLostFolderStartsAboveTheSerialsOfTheSecondBefore() throws {
        let store = try storeWithAList()
        let publisher = Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: store, retention: 7_200)
        let now = UnixTimeNow()
        let serials = try (0..<3).map { _ in try publisher.publish(now: now, milliseconds: now * 1_000).manifest.serial }
        #expect(serials == [now * 1_000, now * 1_000 + 1, now * 1_000 + 2])
        try FileManager.default.removeItem(atPath: folder.file("feed"))
        let again = try publisher.publish(now: now + 1, milliseconds: (now + 1) * 1_000).manifest.serial
        #expect(again > serials.max()!)
    }

    /// The feed of a hub that counted in seconds (400 s ahead of its clock, as a fast publish
    /// loop left it) is continued above that serial, in milliseconds.
    @Test func aSecondsSerialIsContinuedInMilliseconds() throws {
        let store = try storeWithAList()
        let publisher = Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: store, retention: 7_200)
        let now = UnixTimeNow()
        var old = try publisher.publish(now: now).manifest
        old.serial = now + 400
        try old.json.write(toFile: folder.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        #expect(try publisher.publish(now: now, milliseconds: now * 1_000).manifest.serial == (now + 400) * 1_000 + 1)
        #expect(try publisher.publish(now: now, milliseconds: now * 1_000).manifest.serial == (now + 400) * 1_000 + 2)
    }

    /// A manifest whose serial leaves no higher one (a file no hub wrote) is refused, naming it,
    /// rather than overflowing or writing one that reads back as no manifest.
    @Test func aSerialAtTheEndOfTheRangeIsRefused() throws {
        let store = try storeWithAList()
        let publisher = Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: store, retention: 7_200)
        let now = UnixTimeNow()
        var last = try publisher.publish(now: now).manifest
        last.serial = Int.max - 1
        try last.json.write(toFile: folder.file("feed/manifest.json"), atomically: true, encoding: .utf8)
        do {
            _ = try publisher.publish(now: now)
            Issue.record("published after serial \(Int.max - 1)")
        } catch {
            #expect(error.reason.contains("leaves no higher one") && error.reason.contains(folder.file("feed/manifest.json")), "\(error)")
        }
    }

    @Test func filesNoManifestNamesForTwoIntervalsArePruned() throws {
        let store = try storeWithAList()
        let publisher = Publisher(settings: PublishSettings(dir: folder.file("feed")), storePath: store, retention: 7_200)
        let first = try publisher.publish(now: UnixTimeNow())
        let old = try #require(first.manifest.entry(named: "custom.x")).file
        let database = try Store(path: store, access: .write).database
        try database.execute("UPDATE quotes SET text = 'two' WHERE source = 'custom.x'")
        let second = try publisher.publish(now: UnixTimeNow())
        #expect(second.written == ["custom.x"])
        #expect(FileManager.default.fileExists(atPath: folder.file("feed/" + old)), "still within its retention")
        let third = try publisher.publish(now: UnixTimeNow() + 7_201)
        #expect(third.pruned == 2)  // the file and its .gz twin
        #expect(!FileManager.default.fileExists(atPath: folder.file("feed/" + old)))
        #expect(FileManager.default.fileExists(atPath: folder.file("feed/" + third.manifest.entry(named: "custom.x")!.file)))
    }
}

func UnixTimeNow() -> Int { Int(Date().timeIntervalSince1970) }
