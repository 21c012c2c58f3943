import Foundation
import Testing
import TestSupport

/// The shipped login snippets in a real login shell and under run-parts: a quote when there is
/// a store, and otherwise nothing at all — no store created, no changed exit status, no wait
/// longer than their bound even when the store is locked.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct LoginSnippetTests {
    let scratch = Scratch()
    static let contrib = BinaryRunner.productsFolder.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contrib")
    var profile: String { Self.contrib.appendingPathComponent("profile.d-quoted.sh").path }
    var motd: String { Self.contrib.appendingPathComponent("update-motd.d-50-quoted").path }

    /// bash as a login shell, interactive, with quotectl on PATH: sources the snippet, then
    /// prints the status the login shell was left with.
    func login(_ environment: [String: String] = [:]) throws -> BinaryRunner.Result {
        var bash = BinaryRunner("bash", home: scratch.path, path: "/bin/bash")
        bash.environment["PATH"] = BinaryRunner.productsFolder.path + ":/usr/bin:/bin"
        bash.environment.merge(environment) { $1 }
        return try bash.run(["--noprofile", "--norc", "-l", "-i", "-c", "false; . \(profile); echo \"status=$?\""], timeout: 20)
    }

    var userStore: String { scratch.path + "/.local/share/quoted/quotes.db" }

    @Test func withoutAStoreALoginShellShowsNothingAndCreatesNothing() throws {
        let shell = try login()
        #expect(shell.stdout == "status=0\n", "\(shell.stdout)")
        #expect(!FileManager.default.fileExists(atPath: userStore))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/.local"))
    }

    @Test func withAStoreALoginShellShowsAQuoteAndKeepsItsStatus() throws {
        #expect(try BinaryRunner("quotectl", home: scratch.path).run(["status"]).status == 0)  // the user's own store
        let shell = try login()
        let lines = shell.stdout.split(separator: "\n")
        #expect(lines.count >= 2 && lines.last == "status=0", "\(shell.stdout)")
    }

    /// --once-per day: the day's second login shell shows nothing and keeps its status; a
    /// greeting time in the future (the clock went back) is no greeting today.
    @Test func aSecondLoginTheSameDayShowsNothing() throws {
        #expect(try BinaryRunner("quotectl", home: scratch.path).run(["status"]).status == 0)
        #expect(try login().stdout.split(separator: "\n").count >= 2)
        let again = try login()
        #expect(again.stdout == "status=0\n", "\(again.stdout)")
        let greeted = scratch.path + "/.local/state/quoted/greeted"
        let future = #"{"boot":null,"session":null,"source":"builtin","id":"x","text":"From tomorrow.","author":null,"lang":null,"time":4102444800}"#
        try (future + "\n").write(toFile: greeted, atomically: true, encoding: .utf8)
        let afterClockWentBack = try login()
        #expect(afterClockWentBack.stdout.split(separator: "\n").count >= 2, "\(afterClockWentBack.stdout)")
    }

    /// A store another process holds locked: the snippet gives up after its 2 s, quietly.
    @Test func aLockedStoreDoesNotHoldTheLoginUp() throws {
        #expect(try BinaryRunner("quotectl", home: scratch.path).run(["random"]).status == 0)
        let locker = Process()
        locker.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        locker.arguments = ["-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("PRAGMA locking_mode=EXCLUSIVE"); db.execute("BEGIN EXCLUSIVE")
            db.execute("DELETE FROM quotes WHERE 0"); print("locked", flush=True); time.sleep(15)
            """, userStore]
        let out = Pipe()
        locker.standardOutput = out
        try locker.run()
        defer { locker.terminate() }
        _ = out.fileHandleForReading.availableData  // "locked"
        let shell = try login()  // would throw after 20 s if the login waited on the lock
        #expect(shell.stdout.hasSuffix("status=0\n"), "\(shell.stdout)")
    }

    /// update-motd.d, as pam_motd runs it: through run-parts, as root, with root's HOME.
    @Test func theMotdScriptCreatesNothingAndAlwaysSucceeds() throws {
        var runParts = BinaryRunner("run-parts", home: scratch.path, path: "/bin/run-parts")
        runParts.environment["PATH"] = BinaryRunner.productsFolder.path + ":/usr/bin:/bin"
        let folder = scratch.path + "/update-motd.d"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Copied by cp(1), not in this process: a file this process holds open for writing can
        // be inherited by another test's child being spawned at that moment, and exec then fails
        // with ETXTBSY ("text file busy") — seen under load.
        #expect(try BinaryRunner("cp", home: scratch.path, path: "/bin/cp").run([motd, folder + "/50-quoted"]).status == 0)
        runParts.environment["QUOTED_DB"] = scratch.file("system.db")  // no system store
        let empty = try runParts.run([folder])
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty.stdout) \(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/.local"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("system.db")))
        // With the system store there: a quote, after an empty line.
        #expect(try BinaryRunner("quotectl", home: scratch.path).run(["--db", scratch.file("system.db"), "import",
                                                                      scratch.write("l.json", #"[{"id": 1, "text": "Hello from motd."}]"#),
                                                                      "--name", "l"]).status == 0)
        let shown = try runParts.run([folder])
        #expect(shown.status == 0 && shown.stdout.hasPrefix("\n") && shown.stdout.count > 2, "\(shown.stdout) \(shown.stderr)")
    }
}
