import Foundation
import Testing
import TestSupport

/// The release-shaped binaries against hostile input, measured as a user would see them:
/// peak memory of `quoted sync --once` whatever the server sends, exit codes and messages
/// for bad configuration, and local files that are not what they claim (JSON that escapes every
/// control: QuotectlEndToEndTests, in-process).
@Suite(.offThePool, .serialized, .timeLimit(.minutes(10))) struct HostileEndToEndTests {
    let scratch = Scratch()
    let quoted: BinaryRunner
    let quotectl: BinaryRunner

    /// 1 GiB of inflated spaces in about 6.5 MB on the wire.
    static let bomb = Compression.gzipBomb(inflatedBytes: 1 << 30)

    init() {
        quoted = BinaryRunner("quoted", home: scratch.path)
        quotectl = BinaryRunner("quotectl", home: scratch.path)
    }

    func config(url: String) -> String {
        scratch.write("quoted.conf", """
            [store]
            path = \(scratch.file("quotes.db"))
            [source.custom.hostile]
            url = \(url)
            \(BinaryRunner.fixedSourcesOff)
            """)
    }

    /// With the default cap (32 MiB) the body is cut off as soon as it passes the cap, decoded
    /// or not, and the run says which key to raise. (What that costs in memory — 85 MB at
    /// most — is measured by scripts/bench/hostile.sh, not asserted here.)
    @Test(arguments: ["gzip-bomb", "endless-close", "endless-chunked"])
    func aSyncStopsAtTheCapWhateverTheServerSends(kind: String) throws {
        let bomb = Self.bomb
        let server = try TestUpstream { _ in
            switch kind {
            case "gzip-bomb": return TestUpstream.Response(headers: [("Content-Encoding", "gzip")], body: bomb)
            case "endless-close": return TestUpstream.Response(body: Array("[".utf8), behaviour: .endless(chunked: false))
            default: return TestUpstream.Response(body: Array("[".utf8), behaviour: .endless(chunked: true))
            }
        }
        let path = config(url: server.baseURL + "/list.json")
        let result = try quoted.run(["sync", "--once", "--config", path], timeout: 60)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("custom.hostile: response larger than max_bytes (32M): raise max_bytes in [source.custom.hostile]"), "\(result.stderr)")
    }

    @Test(arguments: [("max_bytes = 8589934592G", "a size from 1K to 16G"), ("interval = 9223372036854775807s", "a duration from 1m to 30d"),
                      ("timeout = 18446744073709551616s", "from 1s to 10m"), ("url = http://alice:s3cretPW@example.com/l.json", "credentials")])
    func configCheckRefusesWhatWouldTrapOrLeak(line: String, message: String) throws {
        let path = scratch.write("bad.conf", "[source.upbit]\n\(line)\n")
        for runner in [quotectl, quoted] {
            let arguments = runner.name == "quotectl" ? ["config", "check", "--config", path] : ["sync", "--once", "--config", path]
            let result = try runner.run(arguments)
            #expect(result.status == 78, "\(runner.name): \(result.stderr)")
            #expect(result.stderr.contains("bad.conf:2: "), "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cretPW"))
            #expect(!result.stdout.contains("s3cretPW"))
        }
    }

    @Test func theDaemonNeverDeletesAFileAtItsSocketPath() throws {
        let store = scratch.file("quotes.db")
        // A real store there: made by a writer (a reader never creates one where --db points).
        #expect(try quotectl.run(["--db", store, "import", scratch.write("one.json", #"[{"id": 1, "text": "x"}]"#), "--name", "one"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let other = scratch.write("notes.txt", "mine")
        let path = scratch.write("daemon.conf", "[daemon]\nsocket = \(other)\n")
        let check = try quotectl.run(["config", "check", "--config", path])
        #expect(check.status == 78, "\(check.stderr)")
        #expect(check.stderr.contains("not a socket"), "\(check.stderr)")
        let run = try quoted.run(["run", "--config", path, "--db", store], timeout: 20)
        #expect(run.status == 78, "\(run.stderr)")
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "mine")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func importRefusesDevicesAndStopsAtItsCap() throws {
        let devices = try quotectl.run(["--db", scratch.file("q.db"), "import", "/dev/zero", "--name", "z"])
        #expect(devices.status == 66, "\(devices.stderr)")
        #expect(devices.stderr.contains("not a regular file"), "\(devices.stderr)")
        let piped = try quotectl.runMeasured(["--db", scratch.file("q.db"), "import", "-", "--name", "z"], standardInput: "/dev/zero")
        #expect(piped.status == 65, "\(piped.stderr)")
        #expect(piped.stderr.contains("larger than 64 MiB"), "\(piped.stderr)")
        let capped = try quotectl.runMeasured(["--db", scratch.file("q.db"), "import", "-", "--name", "z", "--max-bytes", "1M"],
                                              standardInput: "/dev/zero")
        #expect(capped.stderr.contains("larger than 1 MiB"), "\(capped.stderr)")
        #expect(try quotectl.run(["import", "-", "--name", "z", "--max-bytes", "8589934592G"]).status == 64)
    }
}
