import Testing
@testable import QuoteText

@Suite struct DesktopNotificationTests {
    @Test func theBodyIsEscapedForMarkupAndTheSummaryIsNot() {
        let notification = DesktopNotification(text: "Use <b>bold</b> & a > b", author: "Tom & Jerry <cat>", language: "en",
                                               occasion: .quoteOfTheDay)
        #expect(notification.body == "Use &lt;b&gt;bold&lt;/b&gt; &amp; a &gt; b")
        #expect(notification.summary == "Tom & Jerry <cat>")
        #expect(notification.notifySendArguments == [
            "--app-name=quoted", "--urgency=low", "--hint=string:x-quoted-lang:en", "--",
            "Tom & Jerry <cat>", "Use &lt;b&gt;bold&lt;/b&gt; &amp; a &gt; b",
        ])
    }

    @Test func anEntityAlreadyInTheTextStaysText() {
        #expect(Markup.escape("fish &amp; chips") == "fish &amp;amp; chips")
        #expect(Markup.escape("&#60;") == "&amp;#60;")
        #expect(Markup.escape("plain") == "plain")
        #expect(Markup.escape("") == "")
    }

    @Test func noAuthorGivesTheOccasionAsSummary() {
        for author in [nil, "", "   ", "\u{1B}[31m"] as [String?] {
            #expect(DesktopNotification(text: "x", author: author, language: nil, occasion: .quoteOfTheDay).summary == "Quote of the day")
            #expect(DesktopNotification(text: "x", author: author, language: nil, occasion: .randomQuote).summary == "A quote")
        }
    }

    @Test func controlCharactersAndNULAreRemoved() {
        let notification = DesktopNotification(text: "a\u{0}b\u{7}c\u{1B}[2Jd\u{202E}e", author: "Line\none\u{0}", language: "ko",
                                               occasion: .randomQuote)
        #expect(notification.body == "abcde")
        #expect(notification.summary == "Line one")
        #expect(!notification.notifySendArguments.contains { $0.unicodeScalars.contains { $0.value < 0x20 } })
    }

    @Test func hugeTextIsCappedAtACharacter() {
        let huge = DesktopNotification(text: String(repeating: "행복 ", count: 100_000), author: String(repeating: "A", count: 10_000),
                                       language: nil, occasion: .randomQuote)
        #expect(huge.body.count == DesktopNotification.bodyLimit)
        #expect(huge.body.hasSuffix("…"))
        #expect(huge.summary.count == DesktopNotification.summaryLimit)
        // A cap before escaping: an entity is never cut in half.
        let ampersands = DesktopNotification(text: String(repeating: "&", count: 5_000), author: nil, language: nil, occasion: .randomQuote)
        #expect(ampersands.body == String(repeating: "&amp;", count: DesktopNotification.bodyLimit - 1) + "…")
    }

    @Test func hangulAndRightToLeftTextPassUnchanged() {
        let korean = DesktopNotification(text: "행복은 내면에서 오지 않고 사이에서 온다", author: "작자 미상", language: "ko", occasion: .quoteOfTheDay)
        #expect(korean.body == "행복은 내면에서 오지 않고 사이에서 온다")
        #expect(korean.summary == "작자 미상")
        #expect(korean.notifySendArguments.contains("--hint=string:x-quoted-lang:ko"))
        let arabic = DesktopNotification(text: "السعادة في الرضا", author: "مجهول", language: "ar", occasion: .randomQuote)
        #expect(arabic.body == "السعادة في الرضا")
        #expect(arabic.summary == "مجهول")
    }

    @Test func aMalformedLanguageIsNotPassedOn() {
        for tag in ["", "ko:evil", "en us", String(repeating: "a", count: 36), "ko\n"] {
            let notification = DesktopNotification(text: "x", author: nil, language: tag, occasion: .randomQuote)
            #expect(notification.language == nil)
            #expect(!notification.notifySendArguments.contains { $0.hasPrefix("--hint") })
        }
        #expect(DesktopNotification(text: "x", author: nil, language: "zh-Hant-TW", occasion: .randomQuote).language == "zh-Hant-TW")
    }

    @Test func aQuoteStartingWithADashIsNotAnOption() {
        let arguments = DesktopNotification(text: "--help", author: "-v", language: nil, occasion: .randomQuote).notifySendArguments
        #expect(Array(arguments.suffix(3)) == ["--", "-v", "--help"])
    }
}
