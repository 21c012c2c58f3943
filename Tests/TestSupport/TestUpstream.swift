import QuoteSystemTasks
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A small programmable HTTP/1.1 server on 127.0.0.1 (a port the kernel picks), in the test
/// process: each test says what it answers (usually a captured fixture) and how it misbehaves —
/// slow answers, cut bodies, reset connections, HTML, redirect loops. It imitates no upstream of
/// its own: the one fixed imitation of the five APIs, for the processes of the end-to-end runs
/// and the benchmarks, is scripts/bench/fake-upstream.py. One thread per connection; every
/// connection is closed after one response.
public final class TestUpstream: Sendable {
    public struct Request: Sendable {
        public let method: String
        /// Path with its query, as sent.
        public let target: String
        /// Header names in lower case.
        public let headers: [String: String]

        public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }

        public var query: [String: String] {
            guard let q = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
            var result: [String: String] = [:]
            for pair in q.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let key = parts[0].removingPercentEncoding ?? parts[0]
                let value = (parts.count > 1 ? parts[1] : "").replacingOccurrences(of: "+", with: " ")
                result[key] = value.removingPercentEncoding ?? value
            }
            return result
        }
    }

    public enum Behaviour: Sendable {
        case normal
        /// Sends the head and only this many body bytes, then closes (Content-Length stays whole).
        case truncate(afterBytes: Int)
        /// Closes the connection with a TCP reset before answering.
        case reset
        /// Waits this long before answering.
        case delay(seconds: Double)
        /// A body that never ends: the head has no Content-Length, the body (if any) is sent,
        /// then filler bytes follow until the client goes away (chunked, or close-delimited).
        case endless(chunked: Bool)
        /// Sends the body one byte at a time, this many seconds apart.
        case trickle(secondsPerByte: Double)
        /// Sends only this many bytes of the head, then closes: a server that dies mid-headers.
        case cutHead(afterBytes: Int)
        /// Sends the head and this many body bytes, then the rest once `gate` opens: a transfer
        /// stalled mid-body (a list's first records already in its transaction).
        case stall(afterBytes: Int, until: Gate)
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public var behaviour: Behaviour

        public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = [], behaviour: Behaviour = .normal) {
            self.status = status
            self.headers = headers
            self.body = body
            self.behaviour = behaviour
        }

        public static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Response {
            Response(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: Array(text.utf8))
        }

        public static func status(_ status: Int, headers: [(String, String)] = []) -> Response {
            Response(status: status, headers: headers)
        }
    }

    public typealias Handler = @Sendable (Request) -> Response

    public let port: Int
    private let listener: Int32
    /// What changes while the server runs, inside its lock.
    private struct State {
        var handler: Handler
        var recorded: [Request] = []
        var stopped = false
    }
    private let state: Mutex<State>

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public init(_ handler: @escaping Handler = { _ in .status(404) }) throws {
        state = Mutex(State(handler: handler))
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { close(listener); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Replaces how requests are answered.
    public func answer(_ handler: @escaping Handler) {
        state.withLock { $0.handler = handler }
    }

    /// Every request received so far, in order.
    public var requests: [Request] { state.withLock { $0.recorded } }

    public func clearRequests() { state.withLock { $0.recorded.removeAll() } }

    public func stop() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        if wasRunning {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 8192)
        while buffer.count < 65_536 {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return }
            buffer.append(contentsOf: chunk[0..<count])
            if let end = findHeadEnd(buffer) {
                buffer = Array(buffer[..<end])
                break
            }
        }
        let head = String(decoding: buffer, as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
        let handler = state.withLock { state -> Handler in
            state.recorded.append(request)
            return state.handler
        }
        let response = handler(request)
        switch response.behaviour {
        case .reset:
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            return
        case .delay(let seconds):
            Thread.sleep(forTimeInterval: seconds)  // the slow upstream a timeout is tested against
        default:
            break
        }
        if case .endless(let chunked) = response.behaviour {
            sendEndless(response, chunked: chunked, on: connection)
            return
        }
        var text = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        var hasLength = false
        for (name, value) in response.headers {
            text += "\(name): \(value)\r\n"
            if name.lowercased() == "content-length" { hasLength = true }
        }
        if !hasLength && response.status != 304 { text += "Content-Length: \(response.body.count)\r\n" }
        text += "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if case .cutHead(let count) = response.behaviour {
            _ = write(Array(bytes.prefix(count)), to: connection)
            return
        }
        if case .truncate(let count) = response.behaviour {
            bytes += response.body.prefix(count)
        } else if request.method != "HEAD" {
            bytes += response.body
        }
        if case .stall(let count, let gate) = response.behaviour {
            let sent = min(bytes.count, text.utf8.count + count)
            guard write(Array(bytes[..<sent]), to: connection) else { return }
            gate.wait()
            _ = write(Array(bytes[sent...]), to: connection)
            return
        }
        if case .trickle(let pause) = response.behaviour {
            let head = bytes.count - response.body.count
            guard write(Array(bytes[..<head]), to: connection) else { return }
            for byte in response.body {
                Thread.sleep(forTimeInterval: pause)  // trickling bytes is the misbehaviour under test
                guard write([byte], to: connection) else { return }
            }
            return
        }
        _ = write(bytes, to: connection)
    }

    private func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// At most 8 GiB or 120 s, so a client that never stops reading cannot keep a test alive forever.
    private func sendEndless(_ response: Response, chunked: Bool, on connection: Int32) {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Connection: close\r\n\r\n"
        func frame(_ bytes: [UInt8]) -> [UInt8] {
            chunked ? Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10] : bytes
        }
        guard write(Array(head.utf8), to: connection) else { return }
        if !response.body.isEmpty, !write(frame(response.body), to: connection) { return }
        let filler = frame([UInt8](repeating: UInt8(ascii: " "), count: 65_536))
        let started = Date()
        var total = 0
        while total < 8 << 30, Date().timeIntervalSince(started) < 120 {
            guard write(filler, to: connection) else { return }
            total += filler.count
        }
    }

    private func findHeadEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    static func reason(_ status: Int) -> String {
        [200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized",
         404: "Not Found", 418: "I'm a teapot", 429: "Too Many Requests", 500: "Internal Server Error",
         502: "Bad Gateway", 503: "Service Unavailable"][status] ?? "Status"
    }
}

/// The captured upstream payloads kept in Tests/Fixtures.
public enum Fixtures {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    public static func text(_ name: String) -> String {
        try! String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
}
