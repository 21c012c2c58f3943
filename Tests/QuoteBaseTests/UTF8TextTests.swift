import QuoteBase
import Testing

/// `String.validatingUTF8` answers as the standard library's `String(validating:as:)` does, for
/// well-formed text and for every kind of ill-formed UTF-8.
@Suite struct UTF8TextTests {
    func oracle(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }

    @Test(arguments: [
        [], Array("plain ascii".utf8), Array("행복은 습관이다".utf8), Array("e\u{301} 😀 \u{FFFD}".utf8), [0x00, 0x41],
        // Ill-formed: a lone continuation, a lead byte without its tail, a truncated four-byte
        // sequence (whose repair is as long as itself), an overlong "/", a surrogate, bytes UTF-8
        // never has, a code point past U+10FFFF.
        [0x80], [0x41, 0xC3], [0xF0, 0x9F, 0x98, 0x41], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
        [0xFF], [0xFE, 0x41], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], Array("ok".utf8) + [0xE2, 0x82, 0xAC, 0xE2],
    ] as [[UInt8]])
    func agreesWithTheStandardLibrary(bytes: [UInt8]) {
        #expect(String.validatingUTF8(bytes) == oracle(bytes))
    }

    @Test func agreesOnRandomBytesToo() {
        // A fixed generator: the same 20,000 cases every run, weighted toward bytes that form
        // or almost form multi-byte sequences.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let interesting: [UInt8] = [0x41, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90, 0x8F]
        var disagreements = 0
        for _ in 0..<20_000 {
            let count = Int(next() % 7)
            let bytes = (0..<count).map { _ in next() % 3 == 0 ? UInt8(truncatingIfNeeded: next()) : interesting[Int(next() % UInt64(interesting.count))] }
            if String.validatingUTF8(bytes) != oracle(bytes) { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }
}
