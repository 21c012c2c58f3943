import QuoteFeed
import Testing

/// SHA-256 as FIPS 180-2 gives it, however the bytes arrive.
@Suite struct FeedDigestTests {
    @Test func knownDigests() {
        #expect(FeedDigest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(FeedDigest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FeedDigest.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func piecesGiveTheDigestOfTheWholeAndFinishStartsAgain() {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        var digest = FeedDigest()
        var offset = 0
        var size = 1
        while offset < million.count {
            let end = min(million.count, offset + size)
            million[offset..<end].withUnsafeBytes { digest.update($0) }
            offset = end
            size = size * 3 + 1  // pieces of every size, across SHA-256's 64-byte blocks
        }
        #expect(digest.finish() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // After finish, an empty digest again.
        #expect(digest.finish() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
