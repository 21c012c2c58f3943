import Foundation
@testable import QuoteDaemon
import QuoteScheduling
import QuoteSystem
import Synchronization
import TestSupport
import Testing

/// The journal's native protocol against a datagram socket the test binds in a folder of its own.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct JournalTests {
    final class Journal {
        let folder = TemporaryFolder("quoted-journal")
        let fd: Int32
        var path: String { folder.file("socket") }

        init() {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = UnixSocketAddress(folder.file("socket"))!
            _ = address.bind(fd)
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        /// The next datagram's fields, decoded as journald reads them (both framings).
        func receive() -> [String: String]? {
            var buffer = [UInt8](repeating: 0, count: 256 * 1_024)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            lastSize = count
            return Self.decode(Array(buffer[0..<count]))
        }

        var lastSize = 0

        static func decode(_ bytes: [UInt8]) -> [String: String]? {
            var fields: [String: String] = [:]
            var index = 0
            while index < bytes.count {
                guard let end = bytes[index...].firstIndex(where: { $0 == 10 || $0 == UInt8(ascii: "=") }) else { return nil }
                let name = String(decoding: bytes[index..<end], as: UTF8.self)
                if bytes[end] == UInt8(ascii: "=") {
                    guard let newline = bytes[end...].firstIndex(of: 10) else { return nil }
                    fields[name] = String(decoding: bytes[(end + 1)..<newline], as: UTF8.self)
                    index = newline + 1
                } else {
                    guard end + 9 <= bytes.count else { return nil }
                    let length = bytes[(end + 1)..<(end + 9)].reversed().reduce(0) { $0 << 8 | Int($1) }
                    let start = end + 9
                    guard start + length < bytes.count, bytes[start + length] == 10 else { return nil }
                    fields[name] = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
                    index = start + length + 1
                }
            }
            return fields
        }

        deinit { close(fd) }
    }

    /// What the logger wrote to "stderr".
    final class Lines: Sendable {
        let written = Mutex<[String]>([])
        func withLock<T>(_ body: ([String]) -> T) -> T { written.withLock { body($0) } }
    }

    static func logger(_ socketPath: String, _ lines: Lines) -> Logger {
        Logger(level: .info, journal: true, write: { line in lines.written.withLock { $0.append(line) } },
               journalSocket: JournalSocket(path: socketPath))
    }

    @Test func aSyncIsOneEntryWithItsFieldsAndNothingOnStderr() throws {
        let journal = Journal()
        let lines = Lines()
        let logger = Self.logger(journal.path, lines)
        let report = SourceReport(source: "upbit", ok: true, httpStatus: 200, counts: .init(inserted: 2, updated: 1),
                                  summary: "536 markets, 3 changed", seconds: 0.41)
        let (event, fields) = LogEvent.sync(report)
        logger.log(.info, report.summaryLine, event: event, fields: fields)
        let entry = try #require(journal.receive())
        #expect(entry == ["MESSAGE": "upbit: 536 markets, 3 changed, 0.41 s", "PRIORITY": "6", "SYSLOG_IDENTIFIER": "quoted",
                          "MESSAGE_ID": LogEvent.syncOK.messageID, "QUOTED_SOURCE": "upbit", "QUOTED_RESULT": "ok",
                          "QUOTED_ROWS_CHANGED": "3", "QUOTED_HTTP_STATUS": "200"])
        #expect(lines.withLock { $0 }.isEmpty)
    }

    @Test func aSyncThatChangedNothingOrFailedSaysSo() {
        let notModified = SourceReport(source: "happiness", ok: true, httpStatus: 304, summary: "not modified", seconds: 0)
        #expect(LogEvent.sync(notModified).event == .syncUnchanged)
        #expect(LogEvent.sync(notModified).fields.first { $0.name == "QUOTED_RESULT" }?.value == "unchanged")
        let failed = SourceReport(source: "custom.x", ok: false, summary: "cannot connect", seconds: 0)
        #expect(LogEvent.sync(failed).event == .syncFailed)
        #expect(LogEvent.sync(failed).fields.map(\.name) == ["QUOTED_SOURCE", "QUOTED_RESULT", "QUOTED_ROWS_CHANGED"])
        #expect(Set(LogEvent.allCases.map(\.messageID)).count == LogEvent.allCases.count)
        #expect(LogEvent.allCases.allSatisfy { $0.messageID.count == 32 && $0.messageID.allSatisfy { "0123456789abcdef".contains($0) } })
    }

    @Test func aMessageWithANewlineIsSentWholeInTheBinaryForm() throws {
        let journal = Journal()
        let lines = Lines()
        Self.logger(journal.path, lines).error("reload failed:\nline 3: unknown key")
        let entry = try #require(journal.receive())
        #expect(entry["MESSAGE"] == "reload failed:\nline 3: unknown key")
        #expect(entry["PRIORITY"] == "3")
        #expect(lines.withLock { $0 }.isEmpty)
    }

    @Test func aHugeMessageIsCutToTheCapAtACharactersBoundary() throws {
        let journal = Journal()
        let lines = Lines()
        let huge = String(repeating: "행", count: 400_000)  // 1.2 MB of three-byte characters
        Self.logger(journal.path, lines).log(.warning, huge, event: .syncFailed, fields: [("QUOTED_SOURCE", "custom.big")])
        let entry = try #require(journal.receive())
        #expect(journal.lastSize <= JournalEntry.limit)
        let message = try #require(entry["MESSAGE"])
        #expect(message.count > 20_000 && message.allSatisfy { $0 == "행" })
        #expect(entry["QUOTED_SOURCE"] == "custom.big")
        #expect(entry["MESSAGE_ID"] == LogEvent.syncFailed.messageID)
    }

    @Test func withoutTheSocketEachEventFallsBackToTodaysStderrLine() {
        let folder = TemporaryFolder("quoted-journal")
        let lines = Lines()
        let logger = Self.logger(folder.file("missing"), lines)
        logger.info("upbit: 536 markets, 3 changed, 0.41 s")
        logger.log(.error, "reload failed\nsecond line", event: .reloadRefused)
        #expect(lines.withLock { $0 } == ["<6>upbit: 536 markets, 3 changed, 0.41 s\n", "<3>reload failed second line\n"])
    }

    @Test func stderrIsTheJournalOnlyWhenTheVariableNamesItsDeviceAndInode() throws {
        let status = try Descriptor.standardError.status()
        #expect(JournalSocket.isStandardError(journalStream: "\(status.st_dev):\(status.st_ino)"))
        #expect(!JournalSocket.isStandardError(journalStream: "\(status.st_dev):\(status.st_ino &+ 1)"))
        #expect(!JournalSocket.isStandardError(journalStream: "8:1234:5"))
        #expect(!JournalSocket.isStandardError(journalStream: "garbage"))
        #expect(!JournalSocket.isStandardError(journalStream: nil))
    }
}
