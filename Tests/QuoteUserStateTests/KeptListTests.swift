import Foundation
import QuoteModels
import QuoteUserState
import Testing
import TestSupport

/// The liked and hidden lists: what is written reads back, and a file that cannot be read whole
/// is said and never written over.
@Suite struct KeptListTests {
    let scratch = TemporaryFolder()
    var folder: StateFolder { StateFolder(path: scratch.file("state/quoted")) }

    func kept(_ id: String, text: String = "A quote", author: String? = "Someone") -> KeptQuote {
        KeptQuote(key: QuoteKey(source: "custom.t", upstreamID: id), text: text, author: author, lang: "en", time: 1_700_000_000)
    }

    @Test func whatIsSavedReadsBackInOrderWithItsText() throws {
        var liked = KeptList.liked(folder)
        #expect(liked.isEmpty && liked.problem == nil)
        let first = liked.add(kept("1", text: "Line one\nline \"two\"", author: nil))
        let second = liked.add(kept("2"))
        let again = liked.add(kept("2", text: "another text"))
        #expect(first && second && !again)
        try liked.save()
        let read = KeptList.liked(folder)
        #expect(read.problem == nil)
        #expect(read.entries == [kept("1", text: "Line one\nline \"two\"", author: nil), kept("2")])
        #expect(read.contains(QuoteKey(source: "custom.t", upstreamID: "1")))
        #expect(!read.contains(QuoteKey(source: "builtin", upstreamID: "1")))
    }

    /// A file edited by hand, its keys in no order and one of them twice: the file's order is
    /// kept, the first line of a repeated key wins, and every key is found (the keys are searched
    /// sorted), before and after adding and removing.
    @Test func keysInAnyOrderAndRepeatedAreEachFoundOnceInTheFilesOrder() throws {
        let ids = ["m", "b", "z", "b", "a", "10", "9"]
        let lines = ids.enumerated().map { kept($0.element, text: "text \($0.offset)").jsonLine + "\n" }.joined()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        try lines.write(toFile: folder.file("liked"), atomically: true, encoding: .utf8)
        var read = KeptList.liked(folder)
        #expect(read.problem == nil)
        #expect(read.entries.map(\.key.upstreamID) == ["m", "b", "z", "a", "10", "9"])
        #expect(read.entries[1].text == "text 1")
        let key = { (id: String) in QuoteKey(source: "custom.t", upstreamID: id) }
        for id in ids { #expect(read.contains(key(id))) }
        for id in ["", "0", "c", "zz", "b "] { #expect(!read.contains(key(id))) }
        #expect(!read.contains(QuoteKey(source: "custom.s", upstreamID: "m")))
        #expect(read.add(kept("0")) && !read.add(kept("z")))
        #expect(read.remove(key("m"))?.text == "text 0" && read.remove(key("m")) == nil)
        for id in ["0", "b", "z", "a", "10", "9"] { #expect(read.contains(key(id))) }
        #expect(!read.contains(key("m")))
        #expect(read.entries.map(\.key.upstreamID) == ["b", "z", "a", "10", "9", "0"])
    }

    @Test func theFolderIsPrivateAndTheFileTooAndRemovingWorks() throws {
        var hidden = KeptList.hidden(folder)
        hidden.add(kept("1"))
        hidden.add(kept("2"))
        try hidden.save()
        let removed = hidden.remove(QuoteKey(source: "custom.t", upstreamID: "1"))
        let removedAgain = hidden.remove(QuoteKey(source: "custom.t", upstreamID: "1"))
        #expect(removed?.key.upstreamID == "1" && removedAgain == nil)
        try hidden.save()
        #expect(KeptList.hidden(folder).entries.map(\.key.upstreamID) == ["2"])
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: hidden.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700 && fileMode == 0o600)
    }

    /// A line mangled by hand: the rest still reads, the file is named with its line, and a
    /// write over it is refused (the user's likes are not lost to one bad line).
    @Test func aMalformedLineIsNamedAndTheFileIsNeverWrittenOver() throws {
        var liked = KeptList.liked(folder)
        liked.add(kept("1"))
        try liked.save()
        let original = try String(contentsOfFile: liked.path, encoding: .utf8) + "{not json\n"
        try original.write(toFile: liked.path, atomically: true, encoding: .utf8)
        var read = KeptList.liked(folder)
        #expect(read.entries.map(\.key.upstreamID) == ["1"])
        #expect(read.problem?.message == "\(liked.path): line 2 is not a kept quote")
        read.add(kept("2"))
        #expect(throws: UserStateError.self) { try read.save() }
        #expect(try String(contentsOfFile: liked.path, encoding: .utf8) == original)
    }

    @Test(arguments: ["binary", "oversized", "folder"])
    func aFileThatCannotBeReadIsSaidAndKept(kind: String) throws {
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let path = folder.file("liked")
        switch kind {
        case "binary": try Data([0, 0xFF, 0xFE, 10, 0x80, 0x81, 10]).write(to: URL(fileURLWithPath: path))
        case "oversized": try Data(repeating: 0x20, count: KeptList.maximumBytes + 1).write(to: URL(fileURLWithPath: path))
        default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        var read = KeptList.liked(folder)
        #expect(read.isEmpty)
        let message = try #require(read.problem?.message)
        #expect(message.hasPrefix(path) && !message.contains("\n"), "\(message)")
        read.add(kept("1"))
        #expect(throws: UserStateError.self) { try read.save() }
        if kind != "folder" { #expect(FileManager.default.contents(atPath: path)?.first != UInt8(ascii: "{")) }
    }

    @Test func idsAreReadAsCommandsTakeThem() {
        #expect(QuoteKey.parse("17")! == (nil, "17"))
        #expect(QuoteKey.parse("builtin:17")! == ("builtin", "17"))
        #expect(QuoteKey.parse("custom.stoics:a:b")! == ("custom.stoics", "a:b"))
        #expect(QuoteKey.parse("tag:example.org,2026:1")! == (nil, "tag:example.org,2026:1"))
        #expect(QuoteKey.parse("builtin:")! == (nil, "builtin:"))
        #expect(QuoteKey.parse("") == nil)
        #expect(QuoteKey.parse("a\u{7}b") == nil)
        #expect(QuoteKey.parse(String(repeating: "9", count: QuoteKey.maximumTextBytes + 1)) == nil)
        #expect(QuoteKey(source: "custom.t", upstreamID: "1").description == "custom.t:1")
    }

    /// The seen history keeps the file format and key it always had (existing users' files).
    @Test func theSeenHistoryKeepsItsFormat() throws {
        let key = SeenQuotes.key(source: "builtin", upstreamID: "1")
        #expect(key == QuoteKey(source: "builtin", upstreamID: "1").hash)
        #expect(key == UInt64(bitPattern: Int64(FNV1a.hash("builtin\u{0}1").signed)))
        var seen = SeenQuotes(storePath: "/var/lib/quoted/quotes.db", folder: folder)
        seen.insert(Quote(source: "builtin", upstreamID: "1", text: "x"))
        seen.save()
        #expect(seen.path == folder.file("seen-" + FNV1a.hash("/var/lib/quoted/quotes.db").hex))
        #expect(try String(contentsOfFile: seen.path, encoding: .utf8) == String(key, radix: 16) + "\n")
        #expect(SeenQuotes(storePath: "/var/lib/quoted/quotes.db", folder: folder).contains(Quote(source: "builtin", upstreamID: "1", text: "y")))
    }
}
