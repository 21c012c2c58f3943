import Foundation
import Testing
import TestSupport

/// What quotectl's start (CQuotectlStart) does before the Swift runtime's, seen from outside:
/// its arguments arrive whole, and the SWIFT_BACKTRACE it sets for the runtime is taken back
/// before any child is run — a program quotectl runs (here a stand-in notify-send) gets the
/// user's environment as it was, with or without a SWIFT_BACKTRACE of the user's own.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct StartEnvironmentTests {
    let scratch = Scratch()
    var store: String { scratch.file("quotes.db") }
    var childEnvironment: String { scratch.file("env") }

    /// quotectl with a store of one quote, a session bus address (nothing listens there: only
    /// the stand-in is run) and a notify-send that writes its environment out.
    func prepared() throws -> BinaryRunner {
        var quotectl = BinaryRunner("quotectl", home: scratch.path)
        quotectl.environment["QUOTED_DB"] = store
        #expect(try quotectl.run(["import", "-", "--name", "l"], stdin: #"[{"id": 1, "text": "Seen by a child."}]"#).status == 0)
        let bin = scratch.file("bin")
        let sh = BinaryRunner("sh", home: scratch.path, path: "/bin/sh")
        let made = try sh.run(["-c", #"mkdir -p "$1" && cat > "$1/notify-send" && chmod +x "$1/notify-send""#, "sh", bin],
                              stdin: "#!/bin/sh\nenv > \"$ENV_OUT\"\n")
        #expect(made.status == 0, "\(made.stderr)")
        quotectl.environment["PATH"] = bin + ":/usr/bin:/bin"
        quotectl.environment["ENV_OUT"] = childEnvironment
        quotectl.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + scratch.file("no-bus")
        return quotectl
    }

    func variablesTheChildSaw() throws -> [String] {
        try String(contentsOfFile: childEnvironment, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aChildGetsNoSettingOfTheStartsOwn() throws {
        let quotectl = try prepared()
        let run = try quotectl.run(["random", "--notify", "--source", "custom.l"])
        #expect(run.status == 0, "\(run.stderr)")
        let seen = try variablesTheChildSaw()
        #expect(seen.contains("ENV_OUT=\(childEnvironment)"), "the stand-in ran: \(seen)")
        #expect(!seen.contains { $0.hasPrefix("SWIFT_BACKTRACE=") }, "\(seen)")
    }

    @Test func aChildGetsTheUsersOwnSettingUnchanged() throws {
        var quotectl = try prepared()
        quotectl.environment["SWIFT_BACKTRACE"] = "enable=no,color=no"
        let run = try quotectl.run(["random", "--notify", "--source", "custom.l"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try variablesTheChildSaw().filter { $0.hasPrefix("SWIFT_BACKTRACE=") } == ["SWIFT_BACKTRACE=enable=no,color=no"])
    }

    /// This test runner links quotectl's objects, the start among them, dynamically: its own
    /// environment (which the processes it runs inherit) holds nothing of the start's.
    @Test func aProgramLinkedDynamicallyKeepsItsEnvironment() {
        #expect(getenv("SWIFT_BACKTRACE").map { String(cString: $0) } != "enable=no,swift-backtrace=/dev/null")
    }

    /// The words as given: empty, spaces, Hangul, a leading dash after `--format`.
    @Test func theArgumentsArriveWhole() throws {
        let quotectl = try prepared()
        let run = try quotectl.run(["random", "--source", "custom.l", "--format", "-[{text}]  한국어 ✓ "])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "-[Seen by a child.]  한국어 ✓ \n", "\(run.stdout)")
        let empty = try quotectl.run(["random", ""])
        #expect(empty.status == 64 && empty.stderr.contains("''"), "\(empty.stderr)")
    }
}
