import Glibc
import QuoteBase
import QuoteConfig
import QuoteSystem
import Synchronization

/// sd_notify(3), written by hand (no libsystemd): datagrams to $NOTIFY_SOCKET,
/// a path or an abstract name starting with '@'.
public final class SystemdNotifier: Sendable {
    private let socketPath: String?
    /// One notification at a time (nothing else to guard: the path never changes).
    private let sending = Mutex(())

    public init(socketPath: String? = Environment.variable("NOTIFY_SOCKET")) {
        self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var isEnabled: Bool { socketPath != nil }

    /// The watchdog interval systemd asked for (WATCHDOG_USEC, for this pid), if any.
    public static func watchdogInterval(environment: [String: String] = [
        "WATCHDOG_USEC": Environment.variable("WATCHDOG_USEC"), "WATCHDOG_PID": Environment.variable("WATCHDOG_PID"),
    ].compactMapValues { $0 }) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != CurrentProcess.id { return nil }
        return .microseconds(microseconds)
    }

    @discardableResult
    public func ready() -> Bool { send("READY=1") }

    /// A status line never waits for a full queue: the caller sends it again at its next change.
    @discardableResult
    public func status(_ text: String) -> Bool {
        send("STATUS=" + String(text.map { $0 == "\n" ? " " : $0 }), waitingAtMost: nil)
    }

    @discardableResult
    public func reloading() -> Bool {
        let microseconds = ClockReading.monotonicMicroseconds()
        return send("RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    }

    @discardableResult
    public func stopping() -> Bool { send("STOPPING=1") }

    @discardableResult
    public func watchdog() -> Bool { send("WATCHDOG=1") }

    /// How long a notification waits while systemd's queue is full (at boot, or in a container
    /// whose queue is short): READY=1 or WATCHDOG=1 lost would fail the unit, an unbounded wait
    /// would wedge the daemon when nothing reads.
    public static let patience = Duration.seconds(2)

    /// Sends one notification; false when there is no socket or sending failed.
    @discardableResult
    public func send(_ message: String, waitingAtMost patience: Duration? = SystemdNotifier.patience) -> Bool {
        guard let socketPath else { return false }
        return sending.withLock { _ in
            guard let socket = try? FileDescriptor.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue)) else { return false }
            // An abstract socket is written '@name'; the address type turns the '@' into a NUL.
            guard var address = UnixSocketAddress(socketPath) else { return false }
            let bytes = Array(message.utf8)
            return address.send(bytes, from: socket.rawValue, waitingAtMost: patience) == bytes.count
        }
    }
}
