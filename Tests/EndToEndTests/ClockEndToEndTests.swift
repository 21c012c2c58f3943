import Foundation
import Testing
import TestSupport

/// A sync made under a wrong wall clock (libfaketime moves the process's clock, as a bad RTC
/// or a restored snapshot would) must not strand the source once the clock is right.
@Suite(.offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime")), .timeLimit(.minutes(10))) struct ClockEndToEndTests {
    let scratch = Scratch()
    let server: TestUpstream

    init() throws {
        server = try TestUpstream { _ in .json(#"[{"id": 1, "category": "c", "text": "Time is what we want most.", "source": "Penn"}]"#) }
    }

    func nextDue(_ status: String) -> Int? {
        for line in status.split(separator: "\n") where line.contains(#""source":"custom.clock""#) {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["next_due"] as? Int
        }
        return nil
    }

    @Test(arguments: ["+365d", "@9999-12-31 12:00:00", "-365d"])
    func aSyncUnderAWrongClockIsDueOneIntervalAfterTheCorrection(shift: String) throws {
        let config = scratch.write("quoted.conf", """
            [store]
            path = \(scratch.file("quotes.db"))
            [source.custom.clock]
            url = \(server.baseURL)/list
            interval = 1h
            \(BinaryRunner.fixedSourcesOff)
            """)
        let quoted = BinaryRunner("quoted", home: scratch.path)
        let skewed = BinaryRunner("faketime", home: scratch.path, path: "/usr/bin/faketime")
        let sync = try skewed.run(["-f", shift, quoted.path, "sync", "--once", "--config", config])
        #expect(sync.status == 0, "\(sync.stderr)")
        let quotectl = BinaryRunner("quotectl", home: scratch.path)
        let status = try quotectl.run(["status", "--json", "--config", config])
        #expect(status.status == 0, "\(status.stderr)")
        let now = Int(Date().timeIntervalSince1970)
        let due = try #require(nextDue(status.stdout), "\(status.stdout)")
        // Ahead: one interval from now at most; behind (a clock a year slow): in the past, so due now.
        #expect(due <= now + 3_600 + 60, "\(shift): next due \(due - now) s from now")
        let text = try quotectl.run(["status", "--config", config]).stdout
        #expect(!text.contains(" d\n") || text.contains("ago"), "\(text)")
    }
}
