import Foundation
import Testing
import TestSupport

/// A run in-process has its own context: runs side by side in one process each see their own
/// environment, output and colour, read their own clock, and never take the process's signals.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct RunContextTests {
    let scratch = Scratch()

    /// Eight runs at once, each told of a store of its own by $QUOTED_DB (none there): each
    /// names its own, on its own standard error.
    @Test func runsAtOnceSeeTheirOwnEnvironmentAndOutput() async throws {
        let stores = (0..<8).map { scratch.file("store-\($0).db") }
        let base = InProcessQuotectl(home: scratch.path)
        let results = await withTaskGroup(of: (Int, InProcessQuotectl.Result?).self) { group in
            for (index, store) in stores.enumerated() {
                var quotectl = base
                quotectl.environment["QUOTED_DB"] = store
                let runner = quotectl
                group.addTask { (index, try? runner.run(["random"])) }
            }
            var results: [Int: InProcessQuotectl.Result] = [:]
            for await (index, result) in group { results[index] = result }
            return results
        }
        for (index, store) in stores.enumerated() {
            let result = try #require(results[index], "run \(index)")
            #expect(result.status == 66 && result.stdout.isEmpty, "\(index): \(result.stdout)")
            #expect(result.stderr.hasPrefix("quotectl: \(store): ") && result.stderr.split(separator: "\n").count == 1,
                    "\(index): \(result.stderr)")
            for other in stores where other != store { #expect(!result.stderr.contains(other)) }
        }
        #expect(stores.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }

    /// A test's run closes the store it read (only the program's own, which ends with its run,
    /// leaves it to the exit): no descriptor of it is left in this process.
    @Test func aRunInProcessClosesTheStoreItRead() throws {
        var quotectl = InProcessQuotectl(home: scratch.path)
        let store = scratch.file("read.db")
        quotectl.environment["QUOTED_DB"] = store
        let list = scratch.write("l.json", #"[{"id": 1, "text": "x"}]"#)
        #expect(try quotectl.run(["import", list, "--name", "l"]).status == 0)
        for words in [["random"], ["status"], ["today"]] {
            #expect(try quotectl.run(words).status == 0)
            #expect(OpenFiles.descriptors(of: store) == 0, "\(words)")
        }
    }

    /// `--color always` in one run, `never` in the next, at once: the colour is each run's.
    @Test func eachRunHasItsOwnColour() async throws {
        var quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["QUOTED_DB"] = scratch.file("q.db")
        let list = scratch.write("l.json", #"[{"id": 1, "text": "x"}]"#)
        #expect(try quotectl.run(["import", list, "--name", "l"]).status == 0)
        let runner = quotectl
        let headers = await withTaskGroup(of: (Bool, String).self) { group in
            for index in 0..<8 {
                let colour = index % 2 == 0
                group.addTask {
                    let table = (try? runner.run(["--color", colour ? "always" : "never", "status"]).stdout) ?? ""
                    return (colour, table.split(separator: "\n").dropFirst().first.map(String.init) ?? "")
                }
            }
            var headers: [(Bool, String)] = []
            for await header in group { headers.append(header) }
            return headers
        }
        #expect(headers.count == 8)
        for (colour, header) in headers {
            #expect(header.contains("SOURCE"), "\(header)")
            #expect(header.contains("\u{1B}[1m") == colour, "\(colour): \(header.debugDescription)")
        }
    }

    /// The clock is the context's: a like made at a fixed time is kept with that time.
    @Test func theClockIsTheRunsOwn() throws {
        var quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["QUOTED_DB"] = scratch.file("q.db")
        quotectl.environment["XDG_STATE_HOME"] = scratch.file("state")
        quotectl.now = 1_800_000_000
        let list = scratch.write("l.json", #"[{"id": 1, "text": "A quote liked at a fixed time."}]"#)
        #expect(try quotectl.run(["import", list, "--name", "l"]).status == 0)
        #expect(try quotectl.run(["like", "custom.l:1"]).status == 0)
        let liked = try quotectl.run(["liked", "--json"]).stdout
        #expect(liked.contains(#""liked":"2027-01-15T08:00:00Z""#), "\(liked)")
    }

    /// A follower writes to a program's standard output and takes its signals: a run in-process
    /// is refused before it installs a handler or registers.
    @Test func aFollowerNeedsAProgram() throws {
        var quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["QUOTED_DB"] = scratch.file("q.db")
        quotectl.environment["XDG_RUNTIME_DIR"] = scratch.path
        let list = scratch.write("l.json", #"[{"id": 1, "text": "x"}]"#)
        #expect(try quotectl.run(["import", list, "--name", "l"]).status == 0)
        let follower = try quotectl.run(["random", "--follow", "--oneline"])
        #expect(follower.status == 70 && follower.stdout.isEmpty, "\(follower.stdout)")
        #expect(follower.stderr == "quotectl: --follow needs a program's standard output and signals\n", "\(follower.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("quoted/followers")))
    }
}
