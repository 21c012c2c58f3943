import Foundation
import Glibc
@testable import QuoteSystem
import Synchronization
import Testing
import TestSupport

/// A history several processes add whole lines to: appends in place, a torn last line neither
/// read nor run into, a tail read bounded whatever the file's size, and compaction that the
/// others' appends wait for.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct AppendFileTests {
    let scratch = TemporaryFolder()
    var path: String { scratch.file("history") }

    func contents() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    func inode(_ path: String) throws -> UInt64 { try FileSystem.status(path).inode }
    func lines(_ texts: String...) -> [[UInt8]] { texts.map { Array(($0 + "\n").utf8) } }

    @Test func linesGoToTheEndOfTheSameFile() throws {
        let first = try AppendFile.append(lines: lines("one"), to: path, mode: 0o600)
        #expect(first == AppendFile.Appended(size: 4))
        let file = try inode(path)
        let second = try AppendFile.append(lines: lines("two", "three"), to: path, mode: 0o600)
        #expect(second.size == 14)
        #expect(try contents() == "one\ntwo\nthree\n")
        #expect(try inode(path) == file, "appended in place: no temporary file, no rename")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["history"])
        #expect(try FileSystem.status(path).permissions & 0o077 == 0)
    }

    /// A crash in the middle of a line leaves it without its newline: readers leave it out, and
    /// the next line is not glued to it.
    @Test func aLineCutShortIsNeitherReadNorRunInto() throws {
        try Data("whole\ncut sh".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try AppendFile.lastLines(of: path, limit: 1 << 20) == Array("whole\n".utf8))
        _ = try AppendFile.append(lines: lines("next"), to: path, mode: 0o600)
        #expect(try contents() == "whole\ncut sh\nnext\n")
        #expect(try AppendFile.lastLines(of: path, limit: 1 << 20) == Array("whole\ncut sh\nnext\n".utf8))
    }

    /// However large the file, what is read is its end, from a line's start, and no more than asked.
    @Test func aLargeFileIsReadFromItsEnd() throws {
        let text = (0..<20_000).map { "line \($0)\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let tail = try AppendFile.lastLines(of: path, limit: 100)
        #expect(tail.count <= 100 && tail.first == UInt8(ascii: "l") && tail.last == UInt8(ascii: "\n"))
        #expect(text.hasSuffix(String(decoding: tail, as: UTF8.self)))
        #expect(String(decoding: tail, as: UTF8.self).hasSuffix("line 19999\n"))
        // One line longer than the limit: nothing whole to read.
        try Data((String(repeating: "x", count: 500) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        #expect(try AppendFile.lastLines(of: path, limit: 100).isEmpty)
        #expect(throws: FileSystemError.self) { try AppendFile.lastLines(of: scratch.file("missing"), limit: 100) }
    }

    /// Lines are joined into writes of at most PIPE_BUF, each of whole lines; a longer line goes alone.
    @Test func writesHoldWholeLinesUpToPipeBuf() {
        let short = [UInt8](repeating: 0x61, count: 999) + [10]
        let long = [UInt8](repeating: 0x62, count: 5_000) + [10]
        let writes = AppendFile.grouped([short, short, short, short, short, long, short])
        #expect(writes.map(\.count) == [4_000, 1_000, 5_001, 1_000])
        #expect(writes.allSatisfy { $0.last == 10 })
        #expect(AppendFile.grouped([]).isEmpty)
    }

    /// A link is not followed to add to what it names, nor is a FIFO waited on: both are refused.
    @Test func onlyARegularFileOfItsOwnIsAddedTo() throws {
        let target = scratch.write("target", "kept\n")
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let link = #expect(throws: FileSystemError.self) { try AppendFile.append(lines: lines("x"), to: path, mode: 0o600) }
        #expect(link?.errno.code == ELOOP)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
        let fifo = scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let refused = #expect(throws: FileSystemError.self) { try AppendFile.append(lines: lines("x"), to: fifo, mode: 0o600) }
        #expect(refused?.errno.code == EINVAL || refused?.errno.code == ENXIO)
    }

    /// Compaction rewrites the file short; another writer that comes meanwhile waits for it (the
    /// file's flock) and adds its line to the new file.
    @Test func compactionKeepsWhatCameMeanwhile() throws {
        _ = try AppendFile.append(lines: lines("a", "b", "c"), to: path, mode: 0o600)
        let before = try inode(path)
        // Another writer comes while the compaction holds the file's lock: it waits, then finds
        // the file replaced and adds its line to the new one.
        let path = self.path, meanwhile = lines("meanwhile")
        final class Flag: Sendable { let value = Mutex(false) }
        let appended = Flag()
        var writer: JoinableThread?
        let done = try AppendFile.compact("history", in: scratch.path, mode: 0o600, limit: 1 << 20) { read in
            #expect(read == Array("a\nb\nc\n".utf8))
            writer = JoinableThread {
                if (try? AppendFile.append(lines: meanwhile, to: path, mode: 0o600)) != nil { appended.value.withLock { $0 = true } }
            }
            usleep(100_000)
            #expect(!appended.value.withLock { $0 }, "the append waited for the compaction")
            return Array("c\n".utf8)
        }
        writer?.join()
        #expect(done)
        #expect(appended.value.withLock { $0 })
        #expect(try contents() == "c\nmeanwhile\n")
        #expect(try inode(path) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["history"], "no temporary file left")
    }

    /// Not needed, or the file's flock held past the patience (a stopped process): nothing done.
    @Test func compactionIsSkippedWhenTheLockStaysHeldOrItIsNotNeeded() throws {
        _ = try AppendFile.append(lines: lines("a", "b"), to: path, mode: 0o600)
        #expect(try !AppendFile.compact("history", in: scratch.path, mode: 0o600, limit: 1 << 20, needed: { $0 > 100 }) { _ in [] })
        let holder = try FileDescriptor.open(path, O_RDONLY)
        try holder.io.lockExclusively()
        #expect(try !AppendFile.compact("history", in: scratch.path, mode: 0o600, limit: 1 << 20) { _ in [] })
        holder.close()
        #expect(try contents() == "a\nb\n")
        #expect(throws: FileSystemError.self) { try AppendFile.compact("missing", in: scratch.path, mode: 0o600, limit: 10) { $0 } }
    }

    /// A flock held for a moment (an append, or a child process between its fork and its exec
    /// with a copy of an appender's descriptor) is waited for: the compaction is done, not skipped.
    @Test func aLockHeldForAMomentIsWaitedFor() throws {
        _ = try AppendFile.append(lines: lines("a", "b"), to: path, mode: 0o600)
        let holder = try FileDescriptor.open(path, O_RDONLY)
        try holder.io.lockExclusively()
        let raw = holder.rawValue
        let releaser = try #require(JoinableThread {
            usleep(30_000)
            _ = flock(raw, LOCK_UN)
        })
        #expect(try AppendFile.compact("history", in: scratch.path, mode: 0o600, limit: 1 << 20) { _ in Array("b\n".utf8) })
        releaser.join()
        holder.close()
        #expect(try contents() == "b\n")
    }

    /// Threads adding at once, each with a descriptor of its own as processes have: every line
    /// whole, none lost, none run into another (lines of up to 3,000 bytes, under PIPE_BUF).
    @Test func writersAtOnceEachAddWholeLines() throws {
        let path = self.path, writers = 8, each = 200
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            var generator = SystemRandomNumberGenerator()
            for number in 0..<each {
                let padding = String(repeating: "x", count: Int.random(in: 0...3_000, using: &generator))
                let line = Array("\(writer) \(number) \(padding)\n".utf8)
                if (try? AppendFile.append(lines: [line], to: path, mode: 0o600)) == nil { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let found = try contents().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(found.count == writers * each)
        var numbers = Set<String>()
        for line in found {
            let words = line.split(separator: " ")
            let padded = words.count == 2 || (words.count == 3 && words[2].allSatisfy { $0 == "x" })
            #expect(padded && line.first != " ", "a line run into another: \(line.prefix(40))")
            if words.count >= 2 { numbers.insert("\(words[0]) \(words[1])") }
        }
        #expect(numbers.count == writers * each)
    }
}
