import Foundation
import Testing
import TestSupport

/// The daemon's `[metrics] textfile`: checked at start, written after every sync, and a write
/// that fails is said once and never fails a sync.
extension DaemonEndToEndTests {
    func writeMetricsConfig(textfile: String) -> String {
        let config = writeConfig()
        let text = (try? String(contentsOfFile: config, encoding: .utf8)) ?? ""
        return scratch.write("quoted.conf", text + "\n[metrics]\ntextfile = \(textfile)\n")
    }

    @Test func aTextfileFolderThatIsNotThereStopsTheStart() throws {
        let missing = scratch.file("no-such-folder")
        let config = writeMetricsConfig(textfile: missing + "/quoted.prom")
        let quoted = BinaryRunner("quoted", home: scratch.path)
        let result = try quoted.run(["run", "--config", config], timeout: 30)
        #expect(result.status == 78, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(missing), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: storePath), "refused before the store was made")
    }

    @Test func theDaemonWritesItsMetricsAndAFailedWriteFailsNoSync() throws {
        let metricsFolder = scratch.file("node-exporter")
        try FileManager.default.createDirectory(atPath: metricsFolder, withIntermediateDirectories: true)
        let textfile = metricsFolder + "/quoted.prom"
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let (daemon, errors) = try startDaemon(config: writeMetricsConfig(textfile: textfile), notify: notify)
        defer { daemon.terminate() }
        #expect(notify.waitFor("STATUS=1 of 1 sources fresh").last == "STATUS=1 of 1 sources fresh")
        let written = try String(contentsOfFile: textfile, encoding: .utf8)
        #expect(written.contains("quoted_source_up{source=\"custom.e2e\"} 1\n"), "\(written)")
        #expect(written.contains("quoted_source_rows{source=\"custom.e2e\",table=\"quotes\"} 2\n"))
        #expect(written.contains("quoted_daemon_syncs_total 1\n"))
        #expect(written.contains("# TYPE quoted_daemon_start_time_seconds gauge\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: textfile)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        #expect(try FileManager.default.contentsOfDirectory(atPath: metricsFolder) == ["quoted.prom"], "no temporary file left")

        // The folder goes (an administrator's mistake, a full disk): syncs go on, said once.
        try FileManager.default.removeItem(atPath: metricsFolder)
        for _ in 0..<2 {
            let sync = try quotectl().run(["sync", "--now"])
            #expect(sync.status == 0, "\(sync.stderr)")
        }
        try FileManager.default.createDirectory(atPath: metricsFolder, withIntermediateDirectories: true)
        #expect(try quotectl().run(["sync", "--now"]).status == 0)
        #expect(Waiting.blockingUntil(patience: .seconds(10)) {
            (try? String(contentsOfFile: textfile, encoding: .utf8))?.contains("quoted_daemon_syncs_total 4\n") == true
        })
        // The answer to `status` carries the daemon's own metrics to quotectl.
        let shown = try quotectl().run(["status", "--format", "prometheus"])
        #expect(shown.stdout.contains("quoted_daemon_syncs_total 4\n"), "\(shown.stdout)")

        daemon.interrupt()
        #expect(waitForExit(daemon, seconds: 10))
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let warnings = log.split(separator: "\n").filter { $0.contains("metrics: could not write") }
        #expect(warnings.count == 1, "\(log)")
        #expect(warnings.first?.hasPrefix("<4>") == true)
        #expect(log.contains("<6>metrics: \(textfile) written again"), "\(log)")
    }
}

/// A reload applies `[metrics] textfile`: a new file is written at once, a folder that is not
/// there is refused as at start, and a removed key stops the writing (the last file stays).
extension DaemonEndToEndTests {
    func makeMetricsFolder(_ name: String) throws -> String {
        let folder = scratch.file(name)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func reloadDaemon() throws -> BinaryRunner.Result {
        try BinaryRunner("quoted", home: scratch.path).run(["reload", "--config", scratch.file("quoted.conf")])
    }

    func syncsWritten(_ textfile: String, _ count: Int) -> Bool {
        (try? String(contentsOfFile: textfile, encoding: .utf8))?.contains("quoted_daemon_syncs_total \(count)\n") == true
    }

    @Test func aReloadWritesTheNewTextfileAtOnceAndARemovedOneIsNoLongerWritten() throws {
        let first = try makeMetricsFolder("first") + "/quoted.prom"
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let (daemon, _) = try startDaemon(config: writeMetricsConfig(textfile: first), notify: notify)
        defer { daemon.terminate() }
        #expect(notify.waitFor("STATUS=1 of 1 sources fresh").last == "STATUS=1 of 1 sources fresh")
        #expect(syncsWritten(first, 1))

        let second = try makeMetricsFolder("second") + "/quoted.prom"
        _ = writeMetricsConfig(textfile: second)
        let moved = try reloadDaemon()
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(syncsWritten(second, 1), "written by the reload itself, before any sync")
        #expect(try quotectl().run(["sync", "--now"]).status == 0)
        #expect(Waiting.blockingUntil(patience: .seconds(10)) { syncsWritten(second, 2) })
        #expect(syncsWritten(first, 1), "the path left is no longer written, and its file stays")

        _ = writeConfig()
        let removed = try reloadDaemon()
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try quotectl().run(["sync", "--now"]).status == 0)
        // The next textfile named is written by its reload, after the sync's reading: by then a
        // daemon still writing the removed one would have written it too.
        let third = try makeMetricsFolder("third") + "/quoted.prom"
        _ = writeMetricsConfig(textfile: third)
        #expect(try reloadDaemon().status == 0)
        #expect(syncsWritten(third, 3))
        #expect(syncsWritten(second, 2), "with [metrics] removed the file stays as it was")
    }

    @Test func aReloadOntoATextfileFolderThatIsNotThereIsRefusedAndTheOldFileIsStillWritten() throws {
        let textfile = try makeMetricsFolder("node-exporter") + "/quoted.prom"
        let notify = NotifySocket(path: scratch.file("notify.sock"))
        let (daemon, errors) = try startDaemon(config: writeMetricsConfig(textfile: textfile), notify: notify)
        defer { daemon.terminate() }
        #expect(notify.waitFor("STATUS=1 of 1 sources fresh").last == "STATUS=1 of 1 sources fresh")

        let missing = scratch.file("no-such-folder")
        _ = writeMetricsConfig(textfile: missing + "/quoted.prom")
        let refused = try reloadDaemon()
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr == "quoted: reload failed, the running configuration stays: "
                + "[metrics] textfile: the folder \(missing) does not exist (or is not a folder)\n")
        #expect(daemon.isRunning)
        #expect(try quotectl().run(["sync", "--now"]).status == 0)
        #expect(Waiting.blockingUntil(patience: .seconds(10)) { syncsWritten(textfile, 2) })
        #expect(!FileManager.default.fileExists(atPath: missing))

        daemon.interrupt()
        #expect(waitForExit(daemon, seconds: 10))
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("<3>reload failed, keeping the running configuration: [metrics] textfile: the folder \(missing) "), "\(log)")
    }
}
