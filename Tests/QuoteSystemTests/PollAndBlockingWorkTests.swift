import Glibc
import QuoteSystem
import QuoteSystemTasks
import Testing

@Suite(.timeLimit(.minutes(5))) struct PollAndBlockingWorkTests {
    @Test func pollSaysReadyOrTimedOut() throws {
        let pipe = try FileDescriptor.pipe()
        #expect(try !Poll.wait(for: Int16(POLLIN), on: pipe.read.io, timeout: .zero))
        try pipe.write.io.writeAll("x")
        #expect(try Poll.wait(for: Int16(POLLIN), on: pipe.read.io, timeout: .seconds(5)))
    }

    @Test func pollTimeoutsRoundUpAndNeverOverflow() {
        let clock = SystemClock()
        #expect(clock.pollTimeout(until: nil) == -1)
        #expect(clock.pollTimeout(until: clock.now - .seconds(1)) == 0)
        #expect(clock.pollTimeout(until: clock.now + .seconds(Int64.max / 2)) == Int32.max)
        let soon = clock.pollTimeout(until: clock.now + .microseconds(10))
        #expect(soon >= 0 && soon <= 1)
    }

    @Test func blockingWorkRunsOffTheCooperativePoolAndCarriesErrors() async {
        let value = await BlockingWork.perform { () -> Int in
            usleep(1_000)  // work that blocks its thread is what BlockingWork takes off the pool
            return 42
        }
        #expect(value == 42)
        await #expect(throws: Errno(EACCES)) {
            try await BlockingWork.perform { () throws(Errno) -> Int in throw Errno(EACCES) }
        }
    }
}
