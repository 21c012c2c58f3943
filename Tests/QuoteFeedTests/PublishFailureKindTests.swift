import Foundation
import QuoteBase
import QuoteConfig
@testable import QuoteFeed
import Testing
import TestSupport

/// What `quoted publish` exits with follows the kind its failure was given where it was found:
/// 78 for a key the configuration names that is unusable, 74 for the rest, whatever the words.
extension PublisherTests {
    func publishing(signingKey: String? = nil, nextKeys: [String] = []) -> Publisher {
        var settings = PublishSettings(dir: folder.file("feed"), signingKey: signingKey)
        settings.nextKeys = nextKeys
        return Publisher(settings: settings, storePath: folder.file("quotes.db"), retention: 7_200)
    }

    func failure(_ publisher: Publisher) -> FeedFailure? {
        do {
            _ = try publisher.publish()
            return nil
        } catch {
            return error
        }
    }

    @Test func anUnusableKeyIsTheConfigurationsProblem() throws {
        _ = try storeWithAList()
        let readableKey = folder.write("open.sec", "untrusted comment: not a key\nAAAA\n")
        chmod(readableKey, 0o644)
        let readable = try #require(failure(publishing(signingKey: readableKey)))
        #expect(readable.reason.hasPrefix("signing_key: \(readableKey) may be read by others"), "\(readable)")
        #expect(readable.exitCode == .configuration)
        let missing = try #require(failure(publishing(signingKey: folder.file("none.sec"))))
        #expect(missing.reason.hasPrefix("signing_key: "), "\(missing)")
        #expect(missing.exitCode == .configuration)
        let next = try #require(failure(publishing(nextKeys: [folder.file("none.pub")])))
        #expect(next.reason.hasPrefix("next_keys: "), "\(next)")
        #expect(next.exitCode == .configuration)
    }

    @Test func anyOtherFailureIsAnIOErrorWhateverItsWords() throws {
        _ = try storeWithAList()
        _ = try publisher().publish()
        try "not a serial\n".write(toFile: folder.file("feed/.serial"), atomically: true, encoding: .utf8)
        let damaged = try #require(failure(publisher()))
        #expect(damaged.reason.contains("holds no serial"), "\(damaged)")
        #expect(damaged.exitCode == .ioError)
        // Words that look like the configuration's are not what makes a failure the configuration's.
        #expect(FeedFailure("signing_key: a reason that only sounds like one").exitCode == .ioError)
        #expect(FeedFailure("next_keys: a reason that only sounds like one").exitCode == .ioError)
    }
}
