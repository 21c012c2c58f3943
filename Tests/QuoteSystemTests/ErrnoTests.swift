import Glibc
import QuoteSystem
import QuoteSystemTasks
import Synchronization
import Testing
import TestSupport

/// The one EINTR retry: a read interrupted by a signal (a handler installed without
/// SA_RESTART, as a daemon's own may be) goes on and returns the data, instead of failing.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ErrnoTests {
    @Test func anInterruptedReadIsResumed() async throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0  // no SA_RESTART: read(2) fails with EINTR
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        #expect(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let pipe = try FileDescriptor.pipe()
        let reader = pipe.read.io, writer = pipe.write.io
        let reading = ConditionLock<(thread: pthread_t, id: pid_t)?>(nil)
        let interrupted = Atomic<Int>(0)
        // Interrupts the reader a few times, each once it is blocked in read(2) and each time
        // seeing the EINTR come back, then gives it its data.
        let interrupter = JoinableThread {
            let reader = reading.wait(until: { $0 != nil }, then: { $0! })
            for _ in 0..<50 where interrupted.load(ordering: .relaxed) < 5 {
                let before = interrupted.load(ordering: .relaxed)
                guard Waiting.blockingUntil({ Waiting.isAsleep(thread: reader.id) }) else { break }
                pthread_kill(reader.thread, SIGUSR2)
                // A signal that lands before the read has begun brings no EINTR: then it is sent again.
                _ = Waiting.blockingUntil(patience: .seconds(1)) { interrupted.load(ordering: .relaxed) > before }
            }
            try? writer.writeAll("late")
        }
        let result = await BlockingWork.perform { () -> Result<[UInt8], Errno> in
            // Threads may inherit a mask that blocks it (a signal-handling daemon blocks them).
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            reading.withLock { $0 = (pthread_self(), Waiting.currentThreadID()) }
            var buffer = [UInt8](repeating: 0, count: 16)
            return Result { () throws(Errno) in
                // The raw call, counting how often it came back with EINTR while `retrying` went on.
                let count = try Errno.retrying { () -> Int in
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(reader.rawValue, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { interrupted.add(1, ordering: .relaxed) }
                    return count
                }
                return Array(buffer[0..<count])
            }
        }
        await BlockingWork.perform { interrupter?.join() }
        #expect(try result.get() == Array("late".utf8))
        #expect(interrupted.load(ordering: .relaxed) == 5)
    }

    @Test func checkTurnsAReturnedErrorIntoErrno() {
        #expect(throws: Errno(EPERM)) { try Errno.check(EPERM) }
        #expect(throws: Never.self) { try Errno.check(0) }
    }
}
