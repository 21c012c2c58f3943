import QuoteSystem
import QuoteSystemTasks
import Testing

@Suite struct WorkerPriorityTests {
    /// libdispatch's nice values: default 0, utility 2, background 10; never one below the thread's.
    @Test(arguments: [(Int32(-5), TaskPriority.medium), (0, .medium), (1, .low), (2, .low), (3, .background), (10, .background), (19, .background)])
    func thePriorityChosenNeverAsksForANiceValueBelowTheThreadsOwn(nice: Int32, expected: TaskPriority) {
        #expect(WorkerPriority.fitting(nice: nice) == expected)
    }

    /// What `run` starts runs at the priority that fits, not the main thread's user-initiated one,
    /// and so do the child tasks it makes.
    @Test func runStartsItsTaskAndItsChildrenAtTheFittingPriority() async {
        let expected = WorkerPriority.fitting(nice: WorkerPriority.currentNice)
        // `run` blocks its thread as a program's main thread would: one of its own, not a cooperative one.
        let seen = await BlockingWork.perform { WorkerPriority.run { () async -> [TaskPriority] in
            let own = Task.currentPriority
            let child = await withTaskGroup(of: TaskPriority.self) { group in
                group.addTask { Task.currentPriority }
                return await group.next() ?? .high
            }
            return [own, child]
        } }
        #expect(seen == [expected, expected])
        #expect(!seen.contains(.high))
    }
}
