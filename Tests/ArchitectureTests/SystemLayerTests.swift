import Foundation
import Testing

/// The system calls' floor is laid once, in QuoteSystem: outside it no module retries EINTR,
/// turns an errno into words, closes a bare descriptor number or runs work on Dispatch.
@Suite struct SystemLayerTests {
    /// What may appear only in Sources/QuoteSystem, and why.
    static let rules: [(name: String, pattern: String)] = [
        ("an EINTR retry (Errno.retrying has the one)", #"\bEINTR\b"#),
        ("strerror (Errno's description says it)", #"(^|[^A-Za-z_])strerror\("#),
        ("a bare close( (a FileDescriptor closes itself once)", #"(^|[^A-Za-z_.])close\("#),
        ("Dispatch (BlockingWork runs blocking work)", #"DispatchQueue|import Dispatch"#),
        ("posix_spawn / waitpid (Subprocess)", #"\b(posix_spawn|waitpid)\("#),
    ]

    static func offenders(of pattern: String, in lines: [(file: String, number: Int, text: String)]) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return lines.filter { expression.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
            .map { "Sources/\($0.file):\($0.number): \($0.text.trimmingCharacters(in: .whitespaces))" }
    }

    @Test(arguments: rules.map(\.name))
    func onlyTheSystemLayerMakesRawCalls(rule: String) throws {
        let pattern = try #require(Self.rules.first { $0.name == rule }).pattern
        var lines: [(file: String, number: Int, text: String)] = []
        let files = SourceTree.swiftFiles().filter { !$0.hasPrefix("QuoteSystem/") && !$0.hasPrefix("migration-embedder/") }
        #expect(files.count > 50)
        for file in files {
            lines += try SourceTree.codeLines(file).map { (file, $0.number, $0.text) }
        }
        let found = try Self.offenders(of: pattern, in: lines)
        #expect(found.isEmpty, "\(rule) outside QuoteSystem:\n\(found.joined(separator: "\n"))")
    }

    /// libcurl's error text, like errno's, is asked for in one place (`CURLcode.message`).
    @Test func libcurlsErrorTextHasOnePlace() throws {
        var lines: [(file: String, number: Int, text: String)] = []
        for file in SourceTree.swiftFiles() { lines += try SourceTree.codeLines(file).map { (file, $0.number, $0.text) } }
        let found = try Self.offenders(of: #"curl_easy_strerror\("#, in: lines)
        #expect(found.count == 1 && found[0].hasPrefix("Sources/QuoteSync/HTTP/HTTPClient.swift"), "\(found.joined(separator: "\n"))")
    }

    /// The patterns find what they are for, and not their look-alikes.
    @Test func theRulesSeeWhatTheyAreFor() throws {
        func hits(_ rule: Int, _ text: String) throws -> Bool {
            try !Self.offenders(of: Self.rules[rule].pattern, in: [("x.swift", 1, text)]).isEmpty
        }
        #expect(try hits(0, "if errno == EINTR { continue }"))
        #expect(try hits(1, "String(cString: strerror(errno))"))
        #expect(try !hits(1, "String(cString: curl_easy_strerror(code))"))
        #expect(try hits(2, "    close(fd)"))
        #expect(try hits(2, "defer { close(descriptor) }"))
        #expect(try !hits(2, "connection.close()"))
        #expect(try !hits(2, "func closeStandardStream()"))
        #expect(try hits(3, "DispatchQueue.global().async {"))
        #expect(try hits(4, "while waitpid(pid, &status, 0) < 0 {}"))
    }

    /// Comments may name what code may not do.
    @Test func commentsAreNotCode() throws {
        let file = "QuoteSystem/Errno.swift"
        let lines = try SourceTree.codeLines(file)
        #expect(!lines.contains { $0.text.contains("///") })
        #expect(lines.contains { $0.text.contains("EINTR") })
    }
}
