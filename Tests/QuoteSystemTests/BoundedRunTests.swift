import Glibc
import QuoteSystem
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
}
