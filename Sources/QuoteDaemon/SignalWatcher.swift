import Foundation

/// Turns signals into calls, through DispatchSource. Each signal is first set to
/// SIG_IGN (so its default action, often "terminate", never runs), and `install`
/// returns only once every source is registered: a signal sent right after
/// readiness is announced is neither lost nor fatal.
public final class SignalWatcher: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "quoted.signals")

    public init() {}

    /// Not isolated to the main actor: Dispatch calls the handlers on its own queue.
    public nonisolated func install(_ handlers: [Int32: @Sendable () -> Void]) {
        let registered = DispatchGroup()
        for (number, handler) in handlers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources.append(source)
        }
        registered.wait()
    }
}
