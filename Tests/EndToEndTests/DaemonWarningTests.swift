import Foundation
import Testing
import TestSupport

extension DaemonEndToEndTests {
    /// A configuration's warning is the daemon's to say, once per load (the start, a reload), as
    /// its own log line: its sync children, each handed the same configuration, do not repeat it.
    @Test func aConfigurationWarningIsLoggedOncePerLoad() throws {
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        // An interval for happiness, which syncs on its own clock: the warning.
        let config = writeConfig(sourcesOff: BinaryRunner.fixedSourcesOff.replacingOccurrences(
            of: "[source.happiness]\nenabled = false", with: "[source.happiness]\nenabled = false\ninterval = 2h"))
        let (daemon, errors) = try startDaemon(config: config, notify: notify)
        defer { daemon.terminate() }
        _ = notify.waitFor("STATUS=1 of 1 sources fresh")
        for _ in 0..<3 {
            let sync = try quotectl().run(["sync", "--now"])
            #expect(sync.status == 0, "\(sync.stderr)")
        }
        kill(daemon.processIdentifier, SIGHUP)
        _ = notify.waitFor("READY=1")
        let afterReload = try quotectl().run(["sync", "--now"])
        #expect(afterReload.status == 0, "\(afterReload.stderr)")
        daemon.terminate()
        #expect(waitForExit(daemon, seconds: 10))
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = log.split(separator: "\n").filter { $0.contains("interval does not apply to [source.happiness]") }
        #expect(warnings.count == 2, "one at the start, one at the reload, none from the five syncs:\n\(log)")
        #expect(warnings.allSatisfy { $0.hasPrefix("<4>") }, "the daemon's own lines, not 'quoted: warning:': \(warnings)")
        // A person's own sync --once is a load of its own: it says the warning.
        let manual = try BinaryRunner("quoted", home: scratch.path).run(["sync", "--once", "--config", config])
        #expect(manual.stderr.contains("quoted: warning: ") && manual.stderr.contains("interval does not apply to [source.happiness]"),
                "\(manual.stderr)")
    }
}
