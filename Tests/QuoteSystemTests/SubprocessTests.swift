import Glibc
import QuoteSystem
import QuoteSystemTasks
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(5))) struct SubprocessTests {
    @Test func inputAndOutputPipesRoundTrip() async throws {
        var child = try Subprocess.spawn("/bin/cat", arguments: ["cat"], input: .pipe, output: .pipe)
        guard let input = child.input.take() else { Issue.record("no input pipe"); return }
        try input.io.writeAll("a quote\n")
        input.close()
        guard let output = child.output.take() else { Issue.record("no output pipe"); return }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while let count = try? output.io.read(into: &chunk), count > 0 { received += chunk[0..<count] }
        let process = child.process
        #expect(await BlockingWork.perform { process.wait() } == .exited(0))
        #expect(received == Array("a quote\n".utf8))
    }

    @Test func exitStatusAndSignalAreTold() async throws {
        let exited = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", "exit 75"]).process
        #expect(await BlockingWork.perform { exited.wait() } == .exited(75))
        let killed = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", "kill -9 $$"]).process
        let termination = await BlockingWork.perform { killed.wait() }
        #expect(termination == .signalled(SIGKILL) && termination.code == -9)
    }

    @Test func aMissingProgramIsAnErrno() {
        #expect(throws: Errno.noSuchFile) { _ = try Subprocess.spawn("/nonexistent/quoted", arguments: ["quoted"]) }
    }

    /// Signals ignored here (SIGPIPE) are back to their defaults in the child.
    @Test func theChildGetsDefaultSignals() async throws {
        signal(SIGPIPE, SIG_IGN)
        var child = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", "grep SigIgn /proc/self/status"], output: .pipe)
        guard let output = child.output.take() else { Issue.record("no output pipe"); return }
        var chunk = [UInt8](repeating: 0, count: 256)
        let count = try output.io.read(into: &chunk)
        let process = child.process
        _ = await BlockingWork.perform { process.wait() }
        let mask = UInt64(String(decoding: chunk[0..<count], as: UTF8.self).split(separator: "\t").last!.trimmingASCIIWhitespace(), radix: 16)
        #expect(mask.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) == 0 } == true)
    }

    /// A child that outlives SIGTERM is killed once the grace is over — on the clock the test
    /// moves, not after a real wait. The child says when its trap is set and when SIGTERM came
    /// (`wait` lets the trap run at once), so the test waits for those lines, not for time.
    @Test func terminateInsistsAfterTheGrace() async throws {
        let clock = ManualClock()
        var child = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", "trap 'echo term' TERM; echo ready; while :; do sleep 1 & wait $!; done"],
                                         output: .pipe)
        guard let output = child.output.take() else { Issue.record("no output pipe"); return }
        let process = child.process
        func line() async -> String {
            await BlockingWork.perform {
                var text: [UInt8] = []
                var byte = [UInt8](repeating: 0, count: 1)
                while let count = try? output.io.read(into: &byte), count == 1, byte[0] != 0x0A { text.append(byte[0]) }
                return String(decoding: text, as: UTF8.self)
            }
        }
        #expect(await line() == "ready")
        process.terminate(grace: .seconds(8), clock: clock)
        #expect(await line() == "term")
        #expect(!process.hasEnded)
        clock.advance(by: .seconds(8))
        #expect(await BlockingWork.perform { process.wait() } == .signalled(SIGKILL))
    }

    /// A descriptor opened without close-on-exec (as libraries do) never reaches the child.
    @Test func onlyTheStandardStreamsReachTheChild() async throws {
        let leaked = open("/dev/null", O_RDONLY)  // no O_CLOEXEC, on purpose
        defer { close(leaked) }
        var child = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", "ls /proc/$$/fd"], output: .pipe)
        guard let output = child.output.take() else { Issue.record("no output pipe"); return }
        var listed: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while let count = try? output.io.read(into: &chunk), count > 0 { listed += chunk[0..<count] }
        let process = child.process
        _ = await BlockingWork.perform { process.wait() }
        let numbers = String(decoding: listed, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(!numbers.contains(leaked), "\(numbers)")
        #expect(numbers.contains(0) && numbers.contains(1) && numbers.contains(2))
    }

    /// Reaped by someone else, its end is unknown — and said so, never taken for a success.
    @Test func aChildReapedElsewhereIsUnknownNotExitedZero() async throws {
        let process = try Subprocess.spawn("/bin/sh", arguments: ["sh", "-c", "exit 3"]).process
        let pid = process.pid
        #expect(await BlockingWork.perform { () -> pid_t in
            var status: Int32 = 0
            return waitpid(pid, &status, 0)
        } == pid)
        #expect(await BlockingWork.perform { process.wait() } == .unknown(Errno(ECHILD)))
        #expect(process.wait().code == 255)
    }

    @Test func aReapedProcessIsNeverSignalled() async throws {
        let process = try Subprocess.spawn("/bin/true", arguments: ["true"]).process
        #expect(await BlockingWork.perform { process.wait() } == .exited(0))
        #expect(process.hasEnded)
        process.signal(SIGKILL)  // a no-op: the pid may be someone else's by now
    }
}

extension Substring {
    fileprivate func trimmingASCIIWhitespace() -> Substring {
        var text = self
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
