// Testing is there only where tests are built: a release build of the package builds this
// target too, without it.
#if canImport(Testing)
import Glibc
import Testing

/// Whether work grows with its input as a one-pass reader's does, told by processor time, not
/// by a wall-clock limit: `.computing` tests run at nice 19, and when a full run took the two
/// cores, readers that finish in seconds alone met a one-minute limit (CI, four at once).
public enum LinearCost {
    /// How much more the full size may cost than an eighth of it: one pass costs 8×, a pass per
    /// line or per byte (an Array's removeFirst, a prefix measured again) 64×.
    public static let allowedGrowth = 24.0

    /// Below this the full size is too cheap for any growth to matter (or to be measured).
    public static let negligibleSeconds = 0.25

    /// The processor time the calling thread spends in `body`, in seconds: a test's synchronous
    /// body runs on one thread, and what other threads take of the processors is not counted.
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = threadTime()
        try body()
        return threadTime() - start
    }

    /// Runs `body` at an eighth of `size` and at `size`, expecting the second to cost at most
    /// `allowedGrowth` times the first; `body`'s own expectations are checked at both sizes.
    public static func expect(size: Int, sourceLocation: SourceLocation = #_sourceLocation,
                              _ body: (Int) throws -> Void) rethrows {
        let small = try seconds { try body(size / 8) }
        let full = try seconds { try body(size) }
        #expect(full <= max(small * allowedGrowth, negligibleSeconds),
                "\(size) cost \(full) s of processor time, an eighth of it \(small) s: more than one pass",
                sourceLocation: sourceLocation)
    }

    private static func threadTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
#endif
