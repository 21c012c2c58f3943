import Synchronization
import Foundation
@testable import QuoteDaemon
import TestSupport
import Testing

/// sd_notify against datagram sockets the test owns: a path and an abstract name.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct NotifierTests {
    final class Listener {
        let fd: Int32
        let name: String

        init(abstract: Bool) {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            let unique = "quoted-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            name = abstract ? "@" + unique : NSTemporaryDirectory() + unique
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            if abstract { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(fd, &buffer, buffer.count, 0)
            return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
        }

        deinit {
            close(fd)
            if !name.hasPrefix("@") { unlink(name) }
        }
    }

    @Test(arguments: [false, true])
    func messagesArrive(abstract: Bool) {
        let listener = Listener(abstract: abstract)
        let notifier = SystemdNotifier(socketPath: listener.name)
        #expect(notifier.ready())
        #expect(listener.receive() == "READY=1")
        #expect(notifier.status("4/5 sources fresh; upbit: HTTP 429, retry 12:04"))
        #expect(listener.receive() == "STATUS=4/5 sources fresh; upbit: HTTP 429, retry 12:04")
        #expect(notifier.reloading())
        let reloading = listener.receive() ?? ""
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(Int(reloading.split(separator: "=").last ?? "") ?? 0 > 0)
        #expect(notifier.watchdog())
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(notifier.stopping())
        #expect(listener.receive() == "STOPPING=1")
    }

    @Test func withoutASocketNothingIsSent() {
        #expect(!SystemdNotifier(socketPath: nil).ready())
        #expect(!SystemdNotifier(socketPath: "").isEnabled)
    }

    @Test func theWatchdogIntervalIsReadForThisProcessOnly() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000"]) == .seconds(30))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(getpid())"]) == .seconds(30))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"]) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: [:]) == nil)
    }

    @Test func journalLinesCarryPrioritiesAndNoTimestamp() {
        let lines = Mutex<[String]>([])
        let journal = Logger(level: .info, journal: true) { line in lines.withLock { $0.append(line) } }
        journal.error("boom\nsecond line")
        journal.warning("careful")
        journal.info("fine")
        journal.debug("hidden at info")
        #expect(lines.withLock { $0 } == ["<3>boom second line\n", "<4>careful\n", "<6>fine\n"])
        lines.withLock { $0 = [] }
        let terminal = Logger(level: .debug, journal: false) { line in lines.withLock { $0.append(line) } }
        terminal.debug("shown")
        let first = lines.withLock { $0.first }
        #expect(first?.hasSuffix(" debug: shown\n") == true)
        #expect(first?.first?.isNumber == true)
    }
}
