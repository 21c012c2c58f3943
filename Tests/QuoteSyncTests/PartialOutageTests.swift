import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteStore
import QuoteModels
import QuoteText
@testable import QuoteSync
import Testing
import TestSupport

/// A partial outage: some hosts fail (DNS, refused connections, TLS, timeouts) while others
/// answer. A failed transfer must leave nothing behind that the next request on the same
/// client trips over, whichever order the requests come in.
@Suite(.timeLimit(.minutes(10))) struct PartialOutageTests {
    /// A port on loopback that refuses connections: bound (so no other test's server can take
    /// it while this one runs) but never listening.
    final class RefusingPort: Sendable {
        let descriptor: Int32
        let port: Int

        init() {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 ? getsockname(descriptor, pointer, &length) : -1
                }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    @Test func aFailedTransferLeavesNothingForTheNextOnTheSameClient() async throws {
        let server = try TestUpstream { request in
            request.path == "/slow" ? TestUpstream.Response(body: Array("[1]".utf8), behaviour: .delay(seconds: 3)) : .json("[1]")
        }
        let tls = try TLSTestServer()
        defer { server.stop(); tls.stop() }
        let client = HTTPClient()
        let refusing = RefusingPort()
        let failing = [
            ("https://host-that-does-not-exist.invalid/x", "host not found"),
            ("http://127.0.0.1:\(refusing.port)/x", "connection refused"),
            (tls.baseURL + "/x", "not trusted"),
            (server.baseURL + "/slow", "timed out"),
        ]
        for (url, expected) in failing {
            do {
                _ = try await client.send(HTTPRequest(url: url, timeout: 1))
                Issue.record("\(url) succeeded")
            } catch {
                #expect(error.description.contains(expected), "\(url): \(error)")
            }
            // The next request takes whatever handle the failed one left in the pool.
            let response = try await client.send(HTTPRequest(url: server.baseURL + "/ok", timeout: 5))
            #expect(response.status == 200, "after \(url)")
            #expect(response.body == Array("[1]".utf8))
        }
    }

    /// `quoted sync --once` offline with one source on a reachable server: the failing sources
    /// fail with their own reasons, the reachable ones sync, in one process, concurrently.
    @Test func sourcesSyncConcurrentlyWhileOthersFail() async throws {
        let fake = FakeBreakingBad(quoteCount: 20)
        let harness = try SyncHarness { request in
            switch request.path {
            case "/slow": return TestUpstream.Response(body: Array("[]".utf8), behaviour: .delay(seconds: 3))
            case "/list": return .json(listJSON([(1, "one"), (2, "two")]))
            default: return fake.answer(request)
            }
        }
        let tls = try TLSTestServer()
        defer { tls.stop() }
        var breakingBad = harness.settings(.breakingbad, path: "/api")
        breakingBad.productions = ["Breaking Bad", "Better Call Saul"]
        breakingBad.knownStreak = 15
        var happiness = harness.settings(.happiness, path: "/")
        happiness.url = "https://api.host-that-does-not-exist.invalid/happiness/random-quote"
        var upbit = harness.settings(.upbit, path: "/")
        upbit.url = tls.baseURL + "/v1/market/all"
        let refusing = RefusingPort()
        var refused = harness.settings(.custom, path: "/", name: "custom.refused")
        refused.url = "http://127.0.0.1:\(refusing.port)/list"
        var slow = harness.settings(.custom, path: "/slow", name: "custom.slow")
        slow.timeout = 1
        var good = harness.settings(.custom, path: "/list", name: "custom.good")
        // Those that must end with their own outcome get time to reach it on a busy machine (the
        // harness's 2 s is for sources meant to time out; only custom.slow is).
        breakingBad.timeout = 20; happiness.timeout = 20; upbit.timeout = 20; good.timeout = 20
        _ = try harness.database()  // the store exists before the sources race to write it
        for round in 1...3 {
            let reports = await harness.engine.sync([happiness, breakingBad, upbit, refused, slow, good])
            let byName = Dictionary(uniqueKeysWithValues: reports.map { ($0.source, $0) })
            #expect(byName["breakingbad"]?.ok == true, "round \(round): \(byName["breakingbad"]?.summary ?? "")")
            #expect(byName["custom.good"]?.ok == true, "round \(round): \(byName["custom.good"]?.summary ?? "")")
            #expect(byName["happiness"]?.summary.contains("host not found") == true, "\(byName["happiness"]?.summary ?? "")")
            #expect(byName["upbit"]?.summary.contains("not trusted") == true, "\(byName["upbit"]?.summary ?? "")")
            #expect(byName["custom.refused"]?.summary.contains("connection refused") == true)
            #expect(byName["custom.slow"]?.summary.contains("timed out") == true, "\(byName["custom.slow"]?.summary ?? "")")
            for report in reports { #expect(!report.summary.contains("bad argument"), "\(report.source): \(report.summary)") }
        }
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'breakingbad'") == 20)
        #expect(try harness.count("SELECT count(*) FROM quotes WHERE source = 'custom.good'") == 2)
    }

    /// One deadline for a request and its redirects: five hops of 0.6 s each with a 2 s
    /// timeout fail as a timeout, where a fresh timeout per hop would let them pass.
    @Test func redirectsShareOneDeadline() async throws {
        let server = try TestUpstream()
        server.answer { request in
            let hop = Int(request.path.dropFirst(4)) ?? 0
            if hop >= 5 { return .json("[1]") }
            return TestUpstream.Response(status: 302, headers: [("Location", "\(server.baseURL)/hop\(hop + 1)")],
                                         behaviour: .delay(seconds: 0.3))
        }
        defer { server.stop() }
        let client = HTTPClient()
        do {
            // Five hops of 0.3 s each: every hop is within 1 s, the chain is not. (libcurl's own
            // clock: this deadline is the network's, waited for real, kept short.)
            let response = try await client.send(HTTPRequest(url: server.baseURL + "/hop0", timeout: 1))
            Issue.record("the chain of redirects took more than its timeout and still succeeded (\(response.status))")
        } catch {
            #expect(error == .timedOut(seconds: 1), "\(error)")
        }
        // Within its deadline the same chain succeeds.
        let response = try await client.send(HTTPRequest(url: server.baseURL + "/hop0", timeout: 10))
        #expect(response.status == 200)
    }

    @Test func aServerThatClosesInItsHeadersIsALostConnection() async throws {
        let server = try TestUpstream { _ in TestUpstream.Response(body: Array("[1]".utf8), behaviour: .cutHead(afterBytes: 30)) }
        defer { server.stop() }
        do {
            _ = try await HTTPClient().send(HTTPRequest(url: server.baseURL + "/x", timeout: 5))
            Issue.record("a response with half its headers was accepted")
        } catch {
            #expect(error.description.contains("connection lost"), "\(error)")
        }
    }
}
