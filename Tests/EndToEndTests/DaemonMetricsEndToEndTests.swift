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
