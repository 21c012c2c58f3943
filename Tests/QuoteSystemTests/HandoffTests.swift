import Glibc
import QuoteSystem
import Synchronization
import Testing
import TestSupport

/// The bounded queue between a list's reader and its writer thread, and the lock under it.
@Suite(.timeLimit(.minutes(5))) struct HandoffTests {
    @Test func everyElementArrivesOnceAndInOrderThroughASmallQueue() {
        let queue = Handoff<Int>(capacity: 2)
        let received = Mutex<[Int]>([])
        let consumer = JoinableThread {
            while let element = queue.take() { received.withLock { $0.append(element) } }
        }
        for element in 0..<10_000 { #expect(queue.put(element)) }
        queue.close()
        consumer?.join()
        #expect(received.withLock { $0 } == Array(0..<10_000))
        #expect(queue.take() == nil)
        #expect(!queue.put(1))
    }

    @Test func aConsumerThatStopsReleasesAWaitingProducer() {
        let queue = Handoff<Int>(capacity: 1)
        #expect(queue.put(1))
        let answered = Mutex<Bool?>(nil)
        let producerID = ConditionLock<pid_t?>(nil)
        let producer = JoinableThread {
            producerID.withLock { $0 = Waiting.currentThreadID() }
            let put = queue.put(2)  // waits: the queue is full
            answered.withLock { $0 = put }
        }
        let id = producerID.wait(until: { $0 != nil }, then: { $0! })
        #expect(Waiting.blockingUntil { Waiting.isAsleep(thread: id) }, "the producer never waited")
        #expect(answered.withLock { $0 } == nil)
        queue.abandon()
        producer?.join()
        #expect(answered.withLock { $0 } == false)
        #expect(queue.take() == nil)
    }

    @Test func closingDrainsWhatIsLeftThenEnds() {
        let queue = Handoff<String>(capacity: 0)  // at least one
        #expect(queue.capacity == 1)
        #expect(queue.put("a"))
        queue.close()
        #expect(queue.take() == "a")
        #expect(queue.take() == nil)
    }

    @Test func aConditionLockWakesAWaiterWhenItsValueChanges() {
        let lock = ConditionLock(0)
        let seen = Mutex(0)
        let waiter = JoinableThread {
            let value = lock.wait(until: { $0 >= 3 }) { $0 }
            seen.withLock { $0 = value }
        }
        for _ in 0..<3 { lock.withLock { $0 += 1 } }
        waiter?.join()
        #expect(seen.withLock { $0 } == 3)
    }
}
