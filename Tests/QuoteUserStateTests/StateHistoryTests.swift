import Foundation
import Glibc
import QuoteBase
import QuoteModels
@testable import QuoteUserState
import Synchronization
import Testing
import TestSupport

/// The histories a draw adds to (shown, greeted, seen): a line each, in place; read from the
/// end, whole lines only, whatever a file holds; rewritten short rarely, keeping what matters.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct StateHistoryTests {
    let scratch = TemporaryFolder()
    var folder: StateFolder { StateFolder(path: scratch.file("state/quoted")) }
    var shownPath: String { folder.file(ShownQuotes.fileName) }
    let here = SessionIdentity(boot: "boot-1", session: "3")
    let noon = 1_796_212_800

    func quote(_ id: String) -> Quote { Quote(source: "builtin", upstreamID: id, text: "Quote \(id)", author: "A") }
    func line(_ id: String, time: Int, _ identity: SessionIdentity) -> String {
        ShownQuote(kept: KeptQuote(quote(id), time: time), identity: identity).jsonLine
    }

    func inode(_ path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : 0
    }

    func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : -1
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func append(_ bytes: Data, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: bytes)
        try handle.close()
    }

    /// Each quote shown is a line added to the same file: the format is the one every version
    /// reads, and the file is never renamed on the way.
    @Test func eachQuoteShownIsALineAddedInPlace() throws {
        try ShownQuotes.record([quote("1")], now: noon, identity: here, folder: folder)
        let file = inode(shownPath)
        for id in 2...40 { try ShownQuotes.record([quote(String(id))], now: noon + id, identity: here, folder: folder) }
        #expect(inode(shownPath) == file, "no record renames the history")
        let lines = try text(shownPath).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 41 && lines.last == "")
        #expect(lines[0] == line("1", time: noon, here) && lines[39] == line("40", time: noon + 40, here))
        #expect(ShownQuotes.history(folder).map(\.kept.key.upstreamID) == (25...40).map(String.init))
        #expect(ShownQuotes.last(folder) == ShownQuote(kept: KeptQuote(quote("40"), time: noon + 40), identity: here))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["shown"])
    }

    /// A plain draw learns the session from the environment alone, and no boot: nothing reads
    /// /proc for it. Its line still reads as the previous version's did (boot null).
    @Test func aQuoteShownRecordsTheSessionTheEnvironmentNames() throws {
        let named = Environment.withVariables(["XDG_SESSION_ID": "c7"]) { SessionIdentity.fromEnvironment() }
        #expect(named == SessionIdentity(boot: nil, session: "c7"))
        #expect(Environment.withVariables([:]) { SessionIdentity.fromEnvironment() } == SessionIdentity(boot: nil, session: nil))
        #expect(Environment.withVariables(["XDG_SESSION_ID": "../x"]) { SessionIdentity.fromEnvironment() }.session == nil)
        try Environment.withVariables(["XDG_SESSION_ID": "c7"]) {
            try ShownQuotes.record([quote("1")], now: noon, folder: folder)
        }
        #expect(ShownQuotes.last(folder)?.identity == named)
        #expect(try text(shownPath).hasPrefix(#"{"boot":null,"session":"c7","source":"builtin","id":"1","#))
    }

    /// A line cut short (a crash) is not read and does not swallow the next; a whole line still
    /// without its newline may be being written: it is read once it has one.
    @Test func aLineCutShortIsLeftOut() throws {
        try ShownQuotes.record([quote("1")], now: noon, identity: here, folder: folder)
        try append(Data(line("2", time: noon, here).dropLast(5).utf8), to: shownPath)
        #expect(ShownQuotes.last(folder)?.kept.key.upstreamID == "1")
        try ShownQuotes.record([quote("3")], now: noon, identity: here, folder: folder)
        #expect(ShownQuotes.history(folder).map(\.kept.key.upstreamID) == ["1", "3"])
        try append(Data(line("4", time: noon, here).utf8), to: shownPath)
        #expect(ShownQuotes.last(folder)?.kept.key.upstreamID == "3")
        try ShownQuotes.record([quote("5")], now: noon, identity: here, folder: folder)
        #expect(ShownQuotes.history(folder).map(\.kept.key.upstreamID) == ["1", "3", "4", "5"])
    }

    /// Past its size the history is rewritten to its newest quotes, a few times in thousands of
    /// draws: what `like` takes (the last shown) and the newest `keptCount` stay.
    @Test func compactionIsRareAndKeepsTheNewest() throws {
        let lineBytes = line("1000", time: noon, here).utf8.count + 1
        let records = ShownQuotes.compactionBytes / lineBytes * 3 + 10
        var file: UInt64 = 0, replacements = -1
        for id in 1000..<(1000 + records) {
            try ShownQuotes.record([quote(String(id))], now: noon + id, identity: here, folder: folder)
            if inode(shownPath) != file {
                file = inode(shownPath)
                replacements += 1
            }
        }
        #expect(replacements >= 2 && replacements <= records * lineBytes / ShownQuotes.compactionBytes + 1, "\(replacements) in \(records)")
        #expect(size(shownPath) <= ShownQuotes.compactionBytes)
        let newest = (1000 + records - ShownQuotes.keptCount..<1000 + records).map(String.init)
        #expect(ShownQuotes.history(folder).map(\.kept.key.upstreamID) == newest)
        #expect(ShownQuotes.last(folder)?.kept.time == noon + 999 + records)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["shown"], "no temporary file left")
    }

    /// The previous version's file (the newest 16, each with a boot) is read as it is, added to
    /// after its lines, and kept line for line by a compaction.
    @Test func aFileOfThePreviousVersionKeepsWorking() throws {
        let boot = SessionIdentity(boot: "0b0b0b0b-0000-0000-0000-000000000000", session: "2")
        let old = (1...16).map { line(String($0), time: noon + $0, boot) + "\n" }
        try write(old.joined(), to: shownPath)
        #expect(ShownQuotes.last(folder) == ShownQuote(kept: KeptQuote(quote("16"), time: noon + 16), identity: boot))
        #expect(ShownQuotes.history(folder).count == 16)
        try ShownQuotes.record([quote("17")], now: noon + 17, identity: here, folder: folder)
        #expect(try text(shownPath) == old.joined() + line("17", time: noon + 17, here) + "\n")
        let history = ShownQuotes.file(ShownQuotes.fileName, folder)
        let identity = try #require(history.bytesAndIdentity().identity)
        #expect(history.rewrite(expecting: identity, ShownQuotes.keptLines))
        #expect(try text(shownPath) == old.dropFirst().joined() + line("17", time: noon + 17, here) + "\n")
    }

    /// Lines no version wrote: out-of-range times, bad ids, deep nesting, a megabyte of one
    /// letter, invalid UTF-8 — each read as a quote or skipped, never a trap.
    @Test func hostileLinesAreReadOrSkipped() throws {
        let hostile = [
            line("max", time: Int.max, here), line("negative", time: -1, here),
            #"{"boot":null,"session":null,"source":"builtin","id":"big","text":"x","author":null,"lang":null,"time":99999999999999999999999}"#,
            #"{"boot":null,"session":null,"source":"builtin","id":"float","text":"x","author":null,"lang":null,"time":1e300}"#,
            #"{"source":"builtin","id":"untimed","text":"x"}"#, #"{"source":"","id":"1","text":"x","time":1}"#,
            String(repeating: "[", count: 100_000), String(repeating: #"{"a":"#, count: 10_000), String(repeating: "z", count: 1 << 20),
            #"{"boot":"\u0000evil","session":"../../x","source":"builtin","id":"odd","text":"x","author":7,"lang":null,"time":5}"#,
            #"{"boot":"\u0000evil","session":"../../x","source":"builtin","id":"ids","text":"x","author":null,"lang":null,"time":5}"#,
        ]
        try write(hostile.joined(separator: "\n") + "\n", to: shownPath)
        try append(Data([0xFF, 0xFE, 0x00, 0x0A]), to: shownPath)
        let history = ShownQuotes.history(folder)
        try #require(history.map(\.kept.key.upstreamID) == ["max", "negative", "ids"])
        #expect(history.last?.identity == SessionIdentity(boot: nil, session: nil))
        for period in OncePeriod.allCases { #expect(!period.includes(history[0], now: noon, identity: here)) }
        #expect(OncePeriod.boot.includes(history[1], now: noon, identity: here))
    }

    /// A file far past every size (another program's, or years of a bar with no compaction) is
    /// read from its end, and the next quote shown brings it back to its newest lines.
    @Test func aHugeFileIsReadFromItsEndAndCompacted() throws {
        let garbage = String(repeating: String(repeating: "g", count: 99) + "\n", count: 60_000)
        try write(garbage + line("end", time: noon, here) + "\n", to: shownPath)
        #expect(size(shownPath) > ShownQuotes.maximumBytes)
        #expect(ShownQuotes.last(folder)?.kept.key.upstreamID == "end")
        try ShownQuotes.record([quote("after")], now: noon, identity: here, folder: folder)
        #expect(size(shownPath) < 1_000)
        #expect(ShownQuotes.history(folder).map(\.kept.key.upstreamID) == ["end", "after"])
    }

    /// Threads recording at once while the file passes its size (each with descriptors of its
    /// own, as processes have): every line whole, and of each writer's quotes the file keeps
    /// an unbroken run up to its last — a compaction drops the oldest, it loses none after them.
    @Test func writersAtOnceLoseNothingToACompaction() throws {
        // A dozen lines short of the size: the compaction comes while every writer is at work,
        // each with most of its lines still to add (a compaction keeps the newest 16 lines only:
        // a writer done before it would rightly have none left).
        var filler = ""
        while filler.utf8.count < ShownQuotes.compactionBytes - 2_000 { filler += line("pre-\(filler.utf8.count)", time: noon, here) + "\n" }
        try write(filler, to: shownPath)
        let before = inode(shownPath), writers = 6, each = 150
        let folder = self.folder, failures = Mutex(0), identity = here, time = noon
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for number in 0..<each {
                let quote = Quote(source: "builtin", upstreamID: "\(writer)-\(number)", text: "Quote \(writer) \(number)", author: "A")
                if (try? ShownQuotes.record([quote], now: time, identity: identity, folder: folder)) == nil { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(inode(shownPath) != before, "the file was compacted meanwhile")
        let lines = try text(shownPath).split(separator: "\n")
        let shown = lines.compactMap { ShownQuote(jsonLine: $0) }
        #expect(shown.count == lines.count, "every line whole")
        for writer in 0..<writers {
            let numbers = Set(shown.compactMap { entry -> Int? in
                let parts = entry.kept.key.upstreamID.split(separator: "-")
                return parts.count == 2 && parts[0] == "\(writer)" ? Int(parts[1]) : nil
            })
            let first = numbers.min() ?? each
            #expect(numbers.contains(each - 1) && numbers == Set(first..<each), "writer \(writer): \(numbers.sorted())")
        }
    }

    /// `--unseen`'s keys: a line per quote drawn, in place; a new round rewrites the file once,
    /// without the round's keys and with the one drawn.
    @Test func seenKeysAreAddedAndANewRoundRewritesThem() throws {
        func key(_ id: Int) -> UInt64 { SeenQuotes.key(source: "builtin", upstreamID: String(id)) }
        var seen = SeenQuotes(storePath: "/s.db", folder: folder)
        for id in 1...5 { seen.insert(quote(String(id))) }
        seen.save()
        let file = inode(seen.path)
        var again = SeenQuotes(storePath: "/s.db", folder: folder)
        #expect(again.keys == Set((1...5).map(key)))
        again.insert(quote("6"))
        again.insert(quote("1"))
        again.save()
        #expect(inode(seen.path) == file)
        #expect(try text(seen.path).split(separator: "\n").count == 6)
        var round = SeenQuotes(storePath: "/s.db", folder: folder)
        for id in 1...3 { round.remove(key(id)) }
        round.insert(quote("2"))
        round.save()
        #expect(inode(seen.path) != file)
        #expect(SeenQuotes(storePath: "/s.db", folder: folder).keys == Set([2, 4, 5, 6].map(key)))
    }

    /// Two draws that both found the round over, each from its own reading of the file: the one
    /// that saves first rewrites it; the other finds it replaced and only adds its key, which the
    /// new round counts. Neither loses the key it drew.
    @Test func twoNewRoundsAtOnceKeepBothKeys() throws {
        func key(_ id: Int) -> UInt64 { SeenQuotes.key(source: "builtin", upstreamID: String(id)) }
        var seen = SeenQuotes(storePath: "/s.db", folder: folder)
        for id in 1...4 { seen.insert(quote(String(id))) }
        seen.save()
        var first = SeenQuotes(storePath: "/s.db", folder: folder), second = SeenQuotes(storePath: "/s.db", folder: folder)
        for id in 1...4 {
            first.remove(key(id))
            second.remove(key(id))
        }
        first.insert(quote("3"))
        second.insert(quote("1"))
        first.save()
        second.save()
        #expect(SeenQuotes(storePath: "/s.db", folder: folder).keys == Set([3, 1].map(key)))
    }

    /// Key lines as the previous version wrote them, and lines no version wrote: 1 to 16
    /// hexadecimal digits are a key (leading zeros aside), anything else is skipped, and a last
    /// line without its newline is not read.
    @Test func seenLinesAreKeysOrSkipped() {
        let lines = ["ffffffffffffffff", "7fffffffffffffff", "0", "00000000000000000000001", "ABCDEF", "12",
                     "10000000000000000", "-1", "xyz", "", " 1", "1 ", "1\u{0}", String(repeating: "f", count: 1_000)]
        let bytes = Array((lines.joined(separator: "\n") + "\n34").utf8)
        #expect(SeenQuotes.keys(in: bytes) == [UInt64.max, UInt64(Int64.max), 0, 1, 0xABCDEF, 0x12])
        var written: [UInt8] = []
        for key: UInt64 in [0, 1, 0xABCDEF, .max] {
            SeenQuotes.appendHex(key, to: &written)
            written.append(10)
        }
        #expect(String(decoding: written, as: UTF8.self) == "0\n1\nabcdef\nffffffffffffffff\n")
        #expect(SeenQuotes.keys(in: SeenQuotes.text([3, 0xFEED])) == [3, 0xFEED])
    }
}
