import QuoteSystemTasks
import Synchronization
import Foundation
@testable import QuoteStore
import QuoteModels
import QuoteText
import Testing
import TestSupport

/// The daemon as systemd would run it: the real binary, NOTIFY_SOCKET pointing at a
/// datagram socket the test owns, signals, and quotectl talking over the control socket.
@Suite(.offThePool, .serialized, .timeLimit(.minutes(10))) struct DaemonEndToEndTests {
    let scratch = Scratch()
    let server: TestUpstream
    let delay: Delay

    final class Delay: Sendable {
        private let seconds = Mutex(0.0)
        var value: Double {
            get { seconds.withLock { $0 } }
            set { seconds.withLock { $0 = newValue } }
        }
    }

    init() throws {
        let delay = Delay()
        self.delay = delay
        server = try TestUpstream { request in
            let body = #"[{"id": 1, "text": "one", "source": "A"}, {"id": 2, "text": "two", "source": "B"}]"#
            let wait = delay.value
            if wait > 0 { return TestUpstream.Response(body: Array(body.utf8), behaviour: .delay(seconds: wait)) }
            return .json(body)
        }
    }

    var socketPath: String { scratch.file("run/control.sock") }
    var storePath: String { scratch.file("quotes.db") }

    /// `sourcesOff`: the fixed sources' sections (all off), which a test may add a key to.
    func writeConfig(interval: String = "1h", sourcesOff: String = BinaryRunner.fixedSourcesOff) -> String {
        scratch.write("quoted.conf", """
            [store]
            path = \(storePath)
            [daemon]
            socket = \(socketPath)
            [source.custom.e2e]
            url = \(server.baseURL)/list.json
            interval = \(interval)
            timeout = 30s
            \(sourcesOff)
            """)
    }

    /// A datagram socket standing in for systemd's NOTIFY_SOCKET.
    final class NotifySocket {
        let fd: Int32
        let path: String

        init(path: String) {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(path.utf8).enumerated() { raw[i] = b } }
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            var timeout = timeval(tv_sec: 15, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        /// Messages until one starts with `prefix` (or the 15 s timeout).
        func waitFor(_ prefix: String) -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return messages }
                let message = String(decoding: buffer[0..<count], as: UTF8.self)
                messages.append(message)
                if message.hasPrefix(prefix) { return messages }
            }
        }

        deinit { close(fd); unlink(path) }
    }

    /// Starts `quoted run` and returns it once it said READY=1.
    func startDaemon(config: String, notify: NotifySocket, environment extra: [String: String] = [:],
                     openFiles: Int? = nil) throws -> (Process, Pipe) {
        let process = Process()
        let quoted = BinaryRunner.productsFolder.appendingPathComponent("quoted")
        if let openFiles {
            // A low RLIMIT_NOFILE, set by prlimit (util-linux) before exec: the daemon itself runs out.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
            process.arguments = ["--nofile=\(openFiles):\(openFiles)", quoted.path, "run", "--config", config, "--log-level", "debug"]
        } else {
            process.executableURL = quoted
            process.arguments = ["run", "--config", config, "--log-level", "debug"]
        }
        process.environment = ["HOME": scratch.path, "PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": notify.path, "JOURNAL_STREAM": "8:1"]
            .merging(extra) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let messages = notify.waitFor("READY=1")
        #expect(messages.last == "READY=1", "\(messages)")
        return (process, errors)
    }

    func waitForExit(_ process: Process, seconds: Double) -> Bool {
        Waiting.blockingUntil(patience: .milliseconds(Int(seconds * 1_000))) { !process.isRunning }
    }

    func quotectl() -> BinaryRunner {
        var runner = BinaryRunner("quotectl", home: scratch.path)
        runner.environment["QUOTED_CONFIG"] = scratch.file("quoted.conf")
        return runner
    }

    /// Once the daemon has synced: keeps a good copy of its file for clients (`client.conf`, which
    /// says where the socket is), then makes the daemon's own file one it must refuse.
    func breakTheDaemonsConfig(_ config: String, once notify: NotifySocket) throws {
        _ = notify.waitFor("STATUS=1 of 1 sources fresh")
        try FileManager.default.copyItem(atPath: config, toPath: scratch.file("client.conf"))
        try "[source.upbit]\nintervall = 1h\n".write(toFile: config, atomically: true, encoding: .utf8)
    }

    @Test func syncNowGoesThroughTheSocketAndStatusSeesTheDaemon() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let (daemon, errors) = try startDaemon(config: writeConfig(), notify: notify)
        defer { daemon.terminate() }
        let status = notify.waitFor("STATUS=1 of 1 sources fresh")
        #expect(status.last == "STATUS=1 of 1 sources fresh", "\(status)")

        let sync = try quotectl().run(["sync", "--now"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("custom.e2e: started"))
        #expect(sync.stderr.contains("custom.e2e: not modified"))
        let shown = try quotectl().run(["status"])
        #expect(shown.stdout.contains("Daemon: running, pid \(daemon.processIdentifier)"), "\(shown.stdout)")
        let json = try quotectl().run(["status", "--json"])
        #expect(json.stdout.contains(#"{"kind":"daemon","running":true,"pid":\#(daemon.processIdentifier)"#), "\(json.stdout)")
        #expect(try quotectl().run(["random", "--source", "custom.e2e"]).status == 0)

        daemon.interrupt()  // SIGINT
        #expect(notify.waitFor("STOPPING=1").last == "STOPPING=1")
        #expect(waitForExit(daemon, seconds: 10))
        #expect(daemon.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("<6>custom.e2e: 2 quotes, 2 changed"), "\(log)")
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }

    /// 64 clients trickling a byte every 4 s used to hold every slot for 40 s, and status
    /// said "Daemon: not running". Now `quotectl status` is answered and sees the daemon (how
    /// fast — milliseconds — is measured by scripts/bench/socket-pressure.py, not asserted here).
    @Test func statusAnswersWhileClientsTrickle() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let (daemon, _) = try startDaemon(config: writeConfig(), notify: notify)
        defer { daemon.terminate() }
        _ = notify.waitFor("STATUS=1 of 1 sources fresh")
        let tricklers: [Int32] = (0..<64).map { _ in
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(socketPath.utf8).enumerated() { raw[i] = b } }
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            _ = send(fd, "s", 1, Int32(MSG_NOSIGNAL))
            return fd
        }
        defer { for fd in tricklers { close(fd) } }
        for round in 0..<3 {
            if round == 1 { for fd in tricklers { _ = send(fd, "t", 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
            let shown = try quotectl().run(["status"])
            #expect(shown.stdout.contains("Daemon: running, pid \(daemon.processIdentifier)"), "\(shown.stdout)")
        }
    }

    @Test func aSyncAlreadyRunningIsJoinedNotStartedTwice() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let (daemon, _) = try startDaemon(config: writeConfig(), notify: notify)
        defer { daemon.terminate() }
        _ = notify.waitFor("STATUS=1 of 1 sources fresh")
        delay.value = 2
        server.clearRequests()
        // The first client is a plain process (its output fits the pipe), so nothing here blocks on it.
        let first = Process()
        first.executableURL = URL(fileURLWithPath: quotectl().path)
        first.arguments = ["sync", "--now", "--source", "custom.e2e"]
        first.environment = quotectl().environment
        let firstErrors = Pipe()
        first.standardError = firstErrors
        first.standardOutput = FileHandle.nullDevice
        try first.run()
        // The second client asks only once the first one's sync has reached the upstream.
        _ = Waiting.blockingUntil { !server.requests.isEmpty }
        let second = try quotectl().run(["sync", "--now", "--source", "custom.e2e"])
        first.waitUntilExit()
        let firstText = String(decoding: firstErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(firstText.contains("custom.e2e: started"), "\(firstText)")
        #expect(second.stderr.contains("custom.e2e: joined the sync already running"), "\(second.stderr)")
        #expect(first.terminationStatus == 0 && second.status == 0)
        #expect(server.requests.count == 1)
    }

    @Test func sigtermDuringASyncExitsCleanlyAndWritesNothingHalfway() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        delay.value = 20  // the upstream hangs: the sync is in flight when SIGTERM arrives
        let (daemon, _) = try startDaemon(config: writeConfig(), notify: notify)
        // SIGTERM only once the upstream has the request: the sync is really in flight.
        _ = Waiting.blockingUntil { !server.requests.isEmpty }
        #expect(!server.requests.isEmpty)
        daemon.terminate()
        #expect(waitForExit(daemon, seconds: 10))
        #expect(daemon.terminationStatus == 0)
        let store = try Database(path: storePath, mode: .readOnly)
        #expect(try store.scalarString("PRAGMA integrity_check") == "ok")
        #expect(try store.scalarInt("SELECT count(*) FROM quotes WHERE source = 'custom.e2e'") == 0)
        #expect(try store.scalarInt("SELECT count(*) FROM sync_log WHERE ok = 1") == 0)
    }

    @Test func sighupWithABadConfigKeepsTheOldOneRunning() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let config = writeConfig()
        let (daemon, errors) = try startDaemon(config: config, notify: notify)
        defer { daemon.terminate() }
        try breakTheDaemonsConfig(config, once: notify)
        kill(daemon.processIdentifier, SIGHUP)
        let reload = notify.waitFor("READY=1")
        #expect(reload.contains { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") }, "\(reload)")
        #expect(daemon.isRunning)
        // Syncs still run with the configuration the daemon kept, not the bad file on disk.
        let sync = try BinaryRunner("quotectl", home: scratch.path).run(["--config", scratch.file("client.conf"), "sync", "--now"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("custom.e2e: not modified"), "\(sync.stderr)")
        // A good file again: SIGHUP picks it up.
        _ = writeConfig(interval: "2h")
        kill(daemon.processIdentifier, SIGUSR1)
        kill(daemon.processIdentifier, SIGHUP)
        _ = notify.waitFor("READY=1")
        daemon.terminate()
        #expect(waitForExit(daemon, seconds: 10))
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("<3>reload failed, keeping the running configuration: "), "\(log)")
        #expect(log.contains("quoted.conf:2: unknown key 'intervall'"))
        #expect(log.contains("<6>configuration reloaded: 1 source enabled"), "\(log)")
    }

    /// `quoted reload` (the unit's ExecReload=) exits with the daemon's verdict: 78 and its reason
    /// for a refused file, the daemon running on; 0 for a good one; 69 with no daemon.
    @Test func quotedReloadFailsVisiblyWhenTheDaemonRefusesTheFile() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let config = writeConfig()
        let (daemon, errors) = try startDaemon(config: config, notify: notify)
        defer { daemon.terminate() }
        try breakTheDaemonsConfig(config, once: notify)
        let quoted = BinaryRunner("quoted", home: scratch.path)
        let refused = try quoted.run(["reload", "--config", scratch.file("client.conf")])
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr.contains("reload failed, the running configuration stays: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("quoted.conf:2: unknown key 'intervall'"), "\(refused.stderr)")
        #expect(daemon.isRunning)
        _ = writeConfig(interval: "2h")
        let applied = try quoted.run(["reload", "--config", scratch.file("client.conf")])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout == "quoted: reloaded: 1 source enabled\n")
        daemon.terminate()
        #expect(waitForExit(daemon, seconds: 10))
        let gone = try quoted.run(["reload", "--config", scratch.file("client.conf")])
        #expect(gone.status == 69, "\(gone.stderr)")
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("<3>reload failed, keeping the running configuration: "), "\(log)")
        #expect(log.contains("<6>configuration reloaded: 1 source enabled"), "\(log)")
    }

    @Test func theWatchdogIsPettedAtHalfItsInterval() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let (daemon, _) = try startDaemon(config: writeConfig(), notify: notify, environment: ["WATCHDOG_USEC": "600000"])
        defer { daemon.terminate() }
        let start = Date()
        var pets = 0
        while pets < 4 && Date().timeIntervalSince(start) < 5 {
            if notify.waitFor("WATCHDOG=1").last == "WATCHDOG=1" { pets += 1 }
        }
        // Four pets at 0.3 s intervals take about 1.2 s; a wedged loop would send none.
        #expect(pets == 4)
    }

    @Test func withNoDaemonQuotectlSyncsByItself() throws {
        _ = writeConfig()
        let result = try quotectl().run(["sync", "--now"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("daemon not running; syncing with"))
        #expect(result.stderr.contains("custom.e2e: 2 quotes, 2 changed"))
    }

    /// A user the socket's peer check refuses is told the daemon runs and why it will not talk.
    @Test(.enabled(if: getuid() == 0)) func aRefusedUserIsToldTheDaemonRunsButRefusesThem() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let config = writeConfig()
        let (daemon, _) = try startDaemon(config: config, notify: notify)
        defer { daemon.terminate() }
        _ = notify.waitFor("STATUS=1 of 1 sources fresh")
        // Let "nobody" reach the socket (and the configuration and store), so that only the peer check stands.
        for path in [scratch.path, scratch.file("run"), socketPath, config, storePath] { chmod(path, 0o777) }
        let nobody = BinaryRunner("setpriv", home: scratch.path, path: "/usr/bin/setpriv")
        let quotectl = BinaryRunner.productsFolder.appendingPathComponent("quotectl").path
        let status = try nobody.run(["--reuid=65534", "--regid=65534", "--clear-groups", quotectl, "status", "--config", config])
        #expect(status.stdout.contains("Daemon: running (pid \(daemon.processIdentifier)), but this user may not talk to it (not in group root)"),
                "\(status.stdout)\(status.stderr)")
        let sync = try nobody.run(["--reuid=65534", "--regid=65534", "--clear-groups", quotectl, "sync", "--now", "--config", config])
        #expect(sync.status == 77, "\(sync.stderr)")
    }

}

/// The daemon's slow edges, in a suite of their own: they wait seconds of real time (a stopped
/// daemon's silence, a CPU sample), which the serialized suite above would add to its own.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct DaemonEdgeEndToEndTests {
    let base: DaemonEndToEndTests

    init() throws {
        base = try DaemonEndToEndTests()
    }

    /// A daemon stopped with SIGSTOP (or wedged) answers nothing: every client gives up with
    /// exit 75 and the daemon's pid instead of waiting forever — here the quick ones (5 s);
    /// a waiting sync gives up after the heartbeat's silence limit (15 s), which
    /// ControlClientTests checks on the client itself rather than waiting it out here.
    @Test func aStoppedDaemonIsGivenUpOn() throws {
        let notify = DaemonEndToEndTests.NotifySocket(path: base.scratch.file("notify.sock"))
        let (daemon, _) = try base.startDaemon(config: base.writeConfig(), notify: notify)
        defer { kill(daemon.processIdentifier, SIGCONT); daemon.terminate() }
        _ = notify.waitFor("STATUS=1 of 1 sources fresh")
        kill(daemon.processIdentifier, SIGSTOP)
        let pid = daemon.processIdentifier
        let outcomes = Mutex<[String: BinaryRunner.Result]>([:])
        let runner = base.quotectl()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let arguments = [["sync", "--now", "--no-wait"], ["status"]][index]
            let result = try? runner.run(arguments, timeout: 40)
            outcomes.withLock { $0[arguments.joined(separator: " ")] = result }
        }
        let results = outcomes.withLock { $0 }
        for command in ["sync --now --no-wait"] {
            let result = try #require(results[command], "\(command) did not end")
            #expect(result.status == 75, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("daemon not answering (pid \(pid))"), "\(command): \(result.stderr)")
        }
        let status = try #require(results["status"])
        #expect(status.stdout.contains("Daemon: running (pid \(pid)), but daemon not answering"), "\(status.stdout)")
    }

    /// Out of descriptors, accept(2) fails with EMFILE while the listener stays readable: the
    /// loop must pause, not spin a core; once clients leave, the daemon answers again.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
    func runningOutOfDescriptorsDoesNotSpin() throws {
        let notify = DaemonEndToEndTests.NotifySocket(path: base.scratch.file("notify.sock"))
        let (daemon, errors) = try base.startDaemon(config: base.writeConfig(), notify: notify, openFiles: 40)
        defer { daemon.terminate() }
        _ = notify.waitFor("STATUS=1 of 1 sources fresh")
        var clients: [Int32] = []
        for _ in 0..<80 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(base.socketPath.utf8).enumerated() { raw[i] = b } }
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            clients.append(fd)
        }
        func cpuTicks() -> Int {
            let stat = (try? String(contentsOfFile: "/proc/\(daemon.processIdentifier)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            return fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        }
        // Measured from when the daemon has met the limit (it says so, once).
        var log = Data()
        while !String(decoding: log, as: UTF8.self).contains("cannot accept (Too many open files)") {
            let more = errors.fileHandleForReading.availableData
            if more.isEmpty { break }
            log += more
        }
        let before = cpuTicks()
        Thread.sleep(forTimeInterval: 0.5)  // the behaviour under test: how much CPU half a second of it costs
        let used = cpuTicks() - before
        // A spinning loop burns ~50 ticks (a core) in 0.5 s; a pausing one a handful.
        #expect(used < 15, "the daemon used \(used) ticks of CPU in 0.5 s while out of descriptors")
        for fd in clients { close(fd) }
        // Once the clients have left, the daemon answers again — after its back-off (at most 2 s)
        // and the queue of closed connections it still has to take: asked again for a while on a
        // loaded machine rather than timed.
        var status = try base.quotectl().run(["status"])
        for _ in 0..<20 where !status.stdout.contains("Daemon: running, pid") {
            Thread.sleep(forTimeInterval: 0.5)  // between looks, each one a status asked of the daemon
            status = try base.quotectl().run(["status"])
        }
        #expect(status.stdout.contains("Daemon: running, pid \(daemon.processIdentifier)"), "\(status.stdout)")
        daemon.terminate()
        #expect(base.waitForExit(daemon, seconds: 10))
        log += errors.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: log, as: UTF8.self)
        #expect(text.contains("cannot accept (Too many open files); pausing new connections"), "\(text)")
    }
}

/// A user who runs `quoted run` outside a login session (no XDG_RUNTIME_DIR) is told what to
/// set, not just that /run/quoted is not theirs.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct DaemonAsAUserTests {
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")))
    func withoutARuntimeFolderTheUserIsToldWhatToSet() throws {
        let scratch = Scratch()
        chmod(scratch.path, 0o777)
        var runuser = BinaryRunner("runuser", home: scratch.path, path: "/usr/sbin/runuser")
        runuser.environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path]
        let quoted = BinaryRunner.productsFolder.appendingPathComponent("quoted").path
        let result = try runuser.run(["-u", "nobody", "--", quoted, "run", "--db", scratch.file("q.db")], timeout: 20)
        #expect(result.status == 71, "\(result.stderr)")
        #expect(result.stderr.contains("/run/quoted"), "\(result.stderr)")
        #expect(result.stderr.contains("XDG_RUNTIME_DIR is set") && result.stderr.contains("[daemon] socket"), "\(result.stderr)")
    }
}
