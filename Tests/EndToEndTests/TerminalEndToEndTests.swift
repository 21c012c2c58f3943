import Foundation
import Testing
import TestSupport

/// On a terminal, `quoted sync --once` shows a live line per running source, replaced by its
/// summary; piped, exactly the summary.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct SyncProgressTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aLongSyncShowsLiveProgressOnATerminal() throws {
        let scratch = Scratch()
        let body = "[" + (1...120_000).map { #"{"id":\#($0),"category":"c","text":"quote number \#($0)","source":"A"}"# }
            .joined(separator: ",") + "]"
        let server = try TestUpstream { _ in .json(body) }
        let config = scratch.write("q.conf", BinaryRunner.oneListConfig(store: scratch.file("q.db"), list: "custom.big",
                                                                         url: "\(server.baseURL)/list.json", settings: "max_bytes = 64M"))
        let quoted = BinaryRunner("quoted", home: scratch.path)
        let command = "stty cols 100; \(quoted.path) sync --once --config \(config)"
        let result = try BinaryRunner("script", home: scratch.path, path: "/usr/bin/script").run(["-qc", command, "/dev/null"])
        // Each record is written as it arrives: the count grows while the body does.
        #expect(result.stdout.contains("custom.big: 50000 quotes read and written"), "\(result.stdout)")
        #expect(result.stdout.contains("custom.big: 100000 quotes read and written"), "\(result.stdout)")
        #expect(result.stdout.contains("custom.big: 120000 quotes, 120000 changed"))
        server.answer { _ in .json(body) }
        let piped = try quoted.run(["sync", "--once", "--config", config])
        // One summary line and nothing else (the same body: "not modified", in however long it took).
        #expect(piped.stderr.hasPrefix("custom.big: not modified, ") && piped.stderr.split(separator: "\n").count == 1,
                "\(piped.stderr)")
        #expect(!piped.stderr.contains("\u{1B}["))
    }
}

/// Long lists go through $PAGER on a terminal, never when piped or with --no-pager.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct PagerTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func longListsPageOnATerminalOnly() throws {
        let scratch = Scratch()
        let quotectl = BinaryRunner("quotectl", home: scratch.path)
        let store = scratch.file("q.db")
        #expect(try quotectl.run(["--db", store, "import", scratch.write("l.json", #"[{"id": 1, "text": "x"}]"#), "--name", "l"]).status == 0)
        let script = BinaryRunner("script", home: scratch.path, path: "/usr/bin/script")
        let paged = try script.run(["-qc", "PAGER='sed s/^/PAGED:/' \(quotectl.path) --db \(store) status", "/dev/null"]).stdout
        #expect(paged.contains("PAGED:Store: \(store)"), "\(paged)")
        let unpaged = try script.run(["-qc", "PAGER='sed s/^/PAGED:/' \(quotectl.path) --db \(store) status --no-pager", "/dev/null"]).stdout
        #expect(!unpaged.contains("PAGED:") && unpaged.contains("Store: \(store)"), "\(unpaged)")
        var piped = quotectl
        piped.environment["PAGER"] = "sed s/^/PAGED:/"
        #expect(!(try piped.run(["--db", store, "status"]).stdout.contains("PAGED:")))
    }
}
