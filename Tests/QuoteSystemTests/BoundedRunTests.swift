import Glibc
import QuoteSystem
import QuoteSystemTasks
import Foundation
import TestSupport
import Testing

/// Subprocess.runBounded: a child's end with the start of its stderr, or the deadline — after
/// which it is stopped and reaped, whatever it does with SIGTERM.
@Suite(.timeLimit(.minutes(5))) struct BoundedRunTests {
    @Test func aChildThatEndsGivesItsStatusAndItsErrorText() async throws {
        let outcome = try await BlockingWork.perform { () throws(Errno) in
            try Subprocess.runBounded("/bin/sh", arguments: ["sh", "-c", "echo 'no server' >&2; exit 3"], timeout: .seconds(60))
        }
        #expect(outcome == .finished(.exited(3), errorText: "no server\n"))
    }

    @Test func lotsOfErrorTextIsKeptToTheLimitAndNeverBlocksTheChild() async throws {
        let outcome = try await BlockingWork.perform { () throws(Errno) in
            try Subprocess.runBounded("/bin/sh", arguments: ["sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x >&2"],
                                      timeout: .seconds(60), errorLimit: 10)
        }
        #expect(outcome == .finished(.exited(0), errorText: "xxxxxxxxxx"))
    }

    @Test func aChildPastTheDeadlineIsStoppedEvenIfItIgnoresSIGTERM() async throws {
        let outcome = try await BlockingWork.perform { () throws(Errno) in
            try Subprocess.runBounded("/bin/sh", arguments: ["sh", "-c", "trap '' TERM; while :; do sleep 1; done"],
                                      timeout: .milliseconds(300), grace: .milliseconds(200))
        }
        #expect(outcome == .timedOut)
    }

    @Test func aChildThatClosesItsStderrIsStillHeldToTheDeadline() async throws {
        let outcome = try await BlockingWork.perform { () throws(Errno) in
            try Subprocess.runBounded("/bin/sh", arguments: ["sh", "-c", "exec 2>&-; exec sleep 30"], timeout: .milliseconds(300))
        }
        #expect(outcome == .timedOut)
    }

    @Test func aGrandchildKeepingStderrOpenDoesNotHoldTheEnd() async throws {
        // The grandchild's stderr is the pipe, held for 10 minutes (killed at the end; a loaded
        // machine once kept this test 70 s, past a 30 s sleep): the end comes with the child's, so
        // the grandchild is still there to be stopped afterwards (a wait for the pipe's end would
        // have outlived it).
        let folder = TemporaryFolder()
        let pidFile = folder.file("grandchild")
        let outcome = try await BlockingWork.perform { () throws(Errno) in
            try Subprocess.runBounded("/bin/sh", arguments: ["sh", "-c", "sleep 600 & echo $! > \"$0\"; echo said >&2; exit 4", pidFile],
                                      timeout: .seconds(60))
        }
        #expect(outcome == .finished(.exited(4), errorText: "said\n"))
        let grandchild = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.split(separator: "\n").first ?? "") }
        let pid = try #require(grandchild)
        #expect(kill(pid, 0) == 0, "the grandchild was still running when the child's end was reported")
        kill(pid, SIGKILL)
    }
}
