import Foundation
import Glibc
@testable import QuoteSystem
import Testing

/// A .mo file as msgfmt lays it out (little-endian; header, the two string tables, the hash table,
/// the strings), so each test can damage one part of an otherwise sound catalog.
struct MOFile {
    var entries: [(String, String)]
    var hashSize: Int

    /// glibc's hash of a message (hashpjw, loadmsgcat's __hash_string).
    static func hash(_ text: String) -> UInt32 {
        var value: UInt32 = 0
        for byte in text.utf8 {
            value = (value << 4) &+ UInt32(byte)
            let high = value & (0xf << 28)
            if high != 0 { value ^= high >> 24; value ^= high }
        }
        return value
    }

    /// The slots of the hash table, each a string's index + 1 (0: empty), probed as glibc probes.
    func slots() -> [UInt32] {
        var table = [UInt32](repeating: 0, count: hashSize)
        guard hashSize > 2 else { return table }
        for (index, entry) in entries.enumerated() {
            let hash = Self.hash(entry.0)
            var slot = Int(hash % UInt32(hashSize))
            let step = 1 + Int(hash % UInt32(hashSize - 2))
            var tries = 0
            while table[slot] != 0, tries < hashSize {
                slot = slot >= hashSize - step ? slot - (hashSize - step) : slot + step
                tries += 1
            }
            if table[slot] == 0 { table[slot] = UInt32(index + 1) }
        }
        return table
    }

    func bytes(slots override: [UInt32]? = nil) -> [UInt8] {
        let sorted = entries.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        let count = sorted.count, originals = 28, translations = 28 + 8 * count, hashOffset = 28 + 16 * count
        var strings = hashOffset + 4 * hashSize
        var words: [UInt32] = [0x9504_12de, 0, UInt32(count), UInt32(originals), UInt32(translations), UInt32(hashSize), UInt32(hashOffset)]
        var tail: [UInt8] = []
        var tables: ([UInt32], [UInt32]) = ([], [])
        for column in 0..<2 {
            for entry in sorted {
                let text = Array((column == 0 ? entry.0 : entry.1).utf8)
                if column == 0 { tables.0 += [UInt32(text.count), UInt32(strings)] } else { tables.1 += [UInt32(text.count), UInt32(strings)] }
                tail += text + [0]
                strings += text.count + 1
            }
        }
        words += tables.0 + tables.1 + (override ?? MOFile(entries: sorted, hashSize: hashSize).slots())
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } } + tail
    }

    static func with(plural: String, hashSize: Int = 7) -> MOFile {
        MOFile(entries: [("", "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=\(plural);\n"),
                         ("cannot read %1$s", "%1$s을 읽을 수 없음"), ("%1$s quote", "명언 %1$s개\0명언 %1$s개")],
               hashSize: hashSize)
    }
}

@Suite struct CatalogFileTests {
    @Test func aSoundCatalogIsTaken() {
        #expect(CatalogFile.refusal(of: MOFile.with(plural: "n != 1").bytes()) == nil)
        #expect(CatalogFile.refusal(of: MOFile.with(plural: "n != 1", hashSize: 0).bytes()) == nil)
    }

    @Test func theKoreanCatalogAsMsgfmtWritesItIsTaken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("po/ko.po").path
        for endianness in ["little", "big"] {
            let output = folder.appendingPathComponent("\(endianness).mo").path
            let msgfmt = Process()
            msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
            msgfmt.arguments = ["--endianness=\(endianness)", "-o", output, source]
            try msgfmt.run()
            msgfmt.waitUntilExit()
            #expect(msgfmt.terminationStatus == 0)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(CatalogFile.refusal(of: bytes) == nil, "\(endianness)-endian")
        }
    }

    @Test func everyCutOfACatalogIsRefused() {
        let whole = MOFile.with(plural: "n != 1").bytes()
        for length in 0..<whole.count {
            #expect(CatalogFile.refusal(of: Array(whole[0..<length])) != nil, "cut to \(length) of \(whole.count) bytes")
        }
    }

    @Test func aHashTableWithNoEmptySlotIsRefused() throws {
        let catalog = MOFile.with(plural: "n != 1", hashSize: 3)
        let full = catalog.slots().map { $0 == 0 ? 1 : $0 }
        let refusal = try #require(CatalogFile.refusal(of: catalog.bytes(slots: full)))
        #expect(refusal.contains("no empty slot"))
    }

    @Test func aHashTableWhoseProbeSkipsSlotsIsRefused() throws {
        let refusal = try #require(CatalogFile.refusal(of: MOFile.with(plural: "n != 1", hashSize: 8).bytes()))
        #expect(refusal.contains("not prime"))
    }

    @Test func aHashSlotNamingNoStringIsRefused() {
        let catalog = MOFile.with(plural: "n != 1")
        var slots = catalog.slots()
        slots[slots.firstIndex(of: 0)!] = 99
        #expect(CatalogFile.refusal(of: catalog.bytes(slots: slots)) != nil)
    }

    @Test func aStringWithoutItsNulOrPastTheEndIsRefused() {
        var bytes = MOFile.with(plural: "n != 1").bytes()
        bytes[bytes.count - 1] = 0x41
        #expect(CatalogFile.refusal(of: bytes) != nil)
        var far = MOFile.with(plural: "n != 1").bytes()
        far[32] = 0xff; far[33] = 0xff; far[34] = 0xff; far[35] = 0xff
        #expect(CatalogFile.refusal(of: far) != nil)
    }

    @Test func notACatalogIsRefused() {
        #expect(CatalogFile.refusal(of: []) != nil)
        #expect(CatalogFile.refusal(of: [UInt8](repeating: 0, count: 4096)) != nil)
        var revision = MOFile.with(plural: "n != 1").bytes()
        revision[6] = 1
        #expect(CatalogFile.refusal(of: revision) != nil)
    }

    @Test(arguments: ["0", "n != 1", "n > 1", "n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2",
                      "n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2",
                      "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5",
                      "(n % 10 == 1 && n % 100 != 11) ? 0 : 1", "!(n == 1)", "n/10%2", "n % (3 - 1)"])
    func realPluralRulesAreTaken(rule: String) {
        #expect(PluralRule.refusal(ofHeader: Array("nplurals=3; plural=\(rule);".utf8)) == nil, "\(rule)")
    }

    @Test(arguments: ["n/0", "n%0", "n % (2 - 2)", "n/(n-5)", "10 % n", "n/(1 ? 0 : 1)", "n +", "(n", "n ? 1", "n $ 2",
                      "99999999999999999999999", String(repeating: "(", count: 5000) + "n" + String(repeating: ")", count: 5000),
                      String(repeating: "!", count: 5000) + "n"])
    func rulesThatTrapOrDoNotReadAreRefused(rule: String) {
        #expect(PluralRule.refusal(ofHeader: Array("nplurals=2; plural=\(rule);".utf8)) != nil, "\(rule.prefix(40))")
    }

    @Test func aCatalogWhoseRuleDividesByZeroIsRefused() throws {
        let refusal = try #require(CatalogFile.refusal(of: MOFile.with(plural: "n/0").bytes()))
        #expect(refusal.contains("plural rule"))
    }

    /// glibc finds the header by comparing strings: an empty msgid whose length field says 1 (its
    /// string two NULs) is still the header, and its rule is checked.
    @Test func theHeaderIsEveryEmptyMessageWhateverItsLength() {
        var bytes = MOFile.with(plural: "n != 1").bytes()
        let header = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=n/0;\n"
        let headerAt = bytes.count
        bytes += Array(header.utf8) + [0]
        let emptyAt = bytes.count
        bytes += [0, 0]
        let put = { (offset: Int, value: Int) in for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) } }
        // Entry 0 (the sorted first, ""): its msgid now says length 1, its translation the new header.
        put(28, 1); put(32, emptyAt)
        let translations = 28 + 8 * 3
        put(translations, header.utf8.count); put(translations + 4, headerAt)
        #expect(CatalogFile.refusal(of: bytes)?.contains("plural rule") == true)
    }

    @Test func everyRevisionButZeroIsRefused() {
        for revision: UInt8 in [1, 2, 0xff] {
            var bytes = MOFile.with(plural: "n != 1").bytes()
            bytes[4] = revision
            #expect(CatalogFile.refusal(of: bytes) != nil, "revision \(revision)")
        }
    }

    @Test func aCharsetNameGlibcWouldCopyOntoItsStackIsRefused() {
        var catalog = MOFile.with(plural: "n != 1")
        catalog.entries[0].1 = "Content-Type: text/plain; charset=UTF-8" + String(repeating: "x", count: 100_000) + "\n"
        #expect(CatalogFile.refusal(of: catalog.bytes())?.contains("charset") == true)
        catalog.entries[0].1 = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=1; plural=0;\n"
        #expect(CatalogFile.refusal(of: catalog.bytes()) == nil)
    }

    /// A locale or LANGUAGE entry with a '/' is a path to a catalog gettext would open unchecked.
    @Test func aLanguageThatIsAPathIsRefused() {
        #expect(MessageCatalog.outsideTheFolder(["ko_KR.UTF-8", "ko", "en"], folder: "/usr/share/locale") == nil)
        for names in [["ko_KR.UTF-8", "ko/sub"], ["ko_KR.UTF-8", "../../../tmp/evil"], ["/tmp/locale", "ko"]] {
            #expect(MessageCatalog.outsideTheFolder(names, folder: "/usr/share/locale") != nil, "\(names)")
        }
    }

    /// A FIFO in a catalog's place is refused without waiting for a writer that never comes.
    @Test(.timeLimit(.minutes(1))) func aFIFOInACatalogsPlaceIsRefusedAtOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-fifo-\(UUID().uuidString)")
        let messages = folder.appendingPathComponent("ko/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(messages.appendingPathComponent("quoted.mo").path, 0o644) == 0)
        let refusal = MessageCatalog.refusal(of: folder.path, domain: "quoted")
        #expect(refusal?.contains("not a regular file") == true, "\(refusal ?? "nil")")
        #expect(MessageCatalog.refusal(of: folder.appendingPathComponent("none").path, domain: "quoted") == nil)
    }

    @Test func aHeaderWithoutARuleLeavesGlibcsDefault() {
        #expect(PluralRule.refusal(ofHeader: Array("Content-Type: text/plain; charset=UTF-8\n".utf8)) == nil)
        #expect(PluralRule.refusal(ofHeader: Array("Plural-Forms: plural=n/0;\n".utf8)) == nil, "no nplurals: glibc ignores the rule")
    }
}
