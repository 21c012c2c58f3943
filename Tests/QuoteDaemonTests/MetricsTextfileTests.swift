import Synchronization
import Testing
@testable import QuoteDaemon
import QuoteSystem
import TestSupport

/// The textfile's writer: a failure said once per run of failures, and its end said too.
@Suite(.offThePool) struct MetricsTextfileTests {
    struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }

    @Test func aFailingWriteIsSaidOnceUntilOneSucceeds() {
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .debug, journal: true, write: { line in lines.withLock { $0.append(line) } })
        let full = Mutex(true)
        let textfile = MetricsTextfile(path: "/var/lib/prometheus/node-exporter/quoted.prom") { folder, name, _ in
            #expect(folder == "/var/lib/prometheus/node-exporter" && name == "quoted.prom")
            if full.withLock({ $0 }) { throw DiskFull() }
        }
        for _ in 0..<3 { textfile.write("quoted_build_info 1\n", logger: logger) }
        full.withLock { $0 = false }
        textfile.write("quoted_build_info 1\n", logger: logger)
        textfile.write("quoted_build_info 1\n", logger: logger)
        let said = lines.withLock { $0 }
        #expect(said.count == 2, "\(said)")
        #expect(said.first?.hasPrefix("<4>metrics: could not write /var/lib/prometheus/node-exporter/quoted.prom: No space left on device") == true)
        #expect(said.last?.hasPrefix("<6>metrics: /var/lib/prometheus/node-exporter/quoted.prom written again") == true)
    }

    @Test func aPathIsSplitIntoItsFolderAndName() {
        #expect(MetricsTextfile(path: "/var/lib/prometheus/node-exporter/quoted.prom").folder == "/var/lib/prometheus/node-exporter")
        #expect(MetricsTextfile(path: "/quoted.prom").folder == "/")
        #expect(MetricsTextfile(path: "/quoted.prom").name == "quoted.prom")
        #expect(MetricsTextfile(path: "quoted.prom").folder == ".")
        #expect(MetricsTextfile(path: "quoted.prom").name == "quoted.prom")
    }

    @Test func theFolderIsCheckedAtStart() throws {
        let folder = TemporaryFolder()
        #expect(throws: Never.self) { try MetricsTextfile(path: folder.file("quoted.prom")).checkFolder() }
        #expect(try FileSystem.contentsOfDirectory(folder.path).isEmpty, "the probe leaves nothing behind")
        let missing = #expect(throws: ConfigurationProblem.self) { try MetricsTextfile(path: folder.file("gone/quoted.prom")).checkFolder() }
        #expect(missing?.description.contains(folder.file("gone")) == true)
        folder.write("plain", "")
        #expect(throws: ConfigurationProblem.self) { try MetricsTextfile(path: folder.file("plain/quoted.prom")).checkFolder() }
    }

    @Test func theRealWriterReplacesTheFileWholeAndReadableByOthers() throws {
        let folder = TemporaryFolder()
        let textfile = MetricsTextfile(path: folder.file("quoted.prom"))
        textfile.write("first\n", logger: Logger(level: .error, write: { _ in }))
        textfile.write("second\n", logger: Logger(level: .error, write: { _ in }))
        #expect(try FileSystem.contentsOfDirectory(folder.path) == ["quoted.prom"])
        #expect(try FileSystem.status(folder.file("quoted.prom")).permissions == 0o644)
    }
}
