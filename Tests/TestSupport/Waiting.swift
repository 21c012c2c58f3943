import QuoteSystemTasks
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waiting for what another thread or process does by looking at it, each time, until it has
/// happened — never by a fixed pause taken on trust. For events that send no word of their own:
/// a thread blocking in the kernel, a descriptor opened, a file appearing, a process ending.
public enum Waiting {
    /// Looks at `condition` until it holds (true), or gives up after `patience` of real time
    /// (false), blocking the calling thread: for threads of a test's own and synchronous tests
    /// (`.offThePool`), never for a task on the cooperative pool.
    public static func blockingUntil(patience: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while !condition() {
            if clock.now >= deadline { return false }
            usleep(1_000)  // between looks: the event is another thread's or process's to bring
        }
        return true
    }

    /// Looks at `condition` until it holds (true), or gives up after `patience` of real time
    /// (false), suspended between looks: the cooperative threads stay free for the code under test.
    public static func until(patience: Duration = .seconds(10), _ condition: () async -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while await !condition() {
            if clock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(1))  // between looks, as above
        }
        return true
    }

    /// The kernel's id of the calling thread, for `isAsleep(thread:)`.
    public static func currentThreadID() -> pid_t {
        // /proc/thread-self names the calling thread as PID/task/TID (Glibc offers no gettid here).
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return link.split(separator: "/").last.flatMap { pid_t($0) } ?? -1
    }

    /// True while thread `id` of this process sleeps in the kernel — blocked in a read, a lock,
    /// a poll (state S in /proc): the moment a test may signal or release it.
    public static func isAsleep(thread id: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].split(separator: " ").first == "S"
    }

    /// How many of this process's descriptors are open on `path` (a connection to a database
    /// file, say: one more appears when the code under test opens it).
    public static func descriptors(openOn path: String) -> Int {
        // The kernel names a descriptor's file by its real path: compare like with like.
        let path = realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? path
        let folder = "/proc/self/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == path }.count
    }
}
