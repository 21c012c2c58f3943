@testable import QuoteBase
import Testing

/// A message's English is what the code wrote; its key is what po/quoted.pot holds (extract.py
/// writes the same); a translation fills the values in its own order, and a broken one reads English.
@Suite struct MessageTests {
    @Test func theEnglishIsWhatTheCodeWrote() {
        let path = "/tmp/q.db", count = 3
        let message: Message = "cannot read \(path): \(count) tries, 100% sure"
        #expect(message.english == "cannot read /tmp/q.db: 3 tries, 100% sure")
        // No catalog is open in this process: tr() is the English.
        #expect(tr(message) == message.english)
        #expect(trn(1, "\(1) quote", "\(1) quotes") == "1 quote")
        #expect(trn(0, "\(0) quote", "\(0) quotes") == "0 quotes")
        #expect(tr(declared: "OPTIONS:") == "OPTIONS:")
    }

    @Test func theKeyNumbersTheValuesAndDoublesPercentOnlyWhenThereAreValues() {
        let path = "/x", reason = "gone"
        #expect(("cannot read \(path): \(reason)" as Message).key == "cannot read %1$s: %2$s")
        #expect(("\(path) is 100% \(reason)" as Message).key == "%1$s is 100%% %2$s")
        // Without values the key is the English itself: a strftime format stays one.
        #expect(("%Y-%m-%d %H:%M" as Message).key == "%Y-%m-%d %H:%M")
        #expect(("" as Message).key == "")
    }

    @Test func aTranslationMayReorderTheValues() {
        #expect(Message.fill("%2$s 파일을 %1$s", with: ["읽을 수 없음", "a.txt"]) == "a.txt 파일을 읽을 수 없음")
        #expect(Message.fill("%1$s%%와 %1$s", with: ["50"]) == "50%와 50")
        // Values are never read as templates themselves.
        #expect(Message.fill("%1$s", with: ["%2$s %%"]) == "%2$s %%")
    }

    @Test(arguments: ["%3$s", "%0$s", "%s", "%1$d", "%1$", "%", "%99999$s", "%1$s %x"])
    func aBrokenTranslationIsRefused(template: String) {
        #expect(Message.fill(template, with: ["a", "b"]) == nil)
    }

    @Test func aMessageInPiecesReadsAsOne() {
        let a = "x", b = "y"
        let joined = ("first \(a), " as Message) + ("then \(b)" as Message)
        #expect(joined.english == "first x, then y")
        #expect(joined.key == "first %1$s, then %2$s")
    }

    @Test func hangulValuesAndTextSurviveWhole() {
        let name = "행복"
        let message: Message = "출처 \(name) — 🙂"
        #expect(message.english == "출처 행복 — 🙂")
        #expect(Message.fill("%1$s: 😀", with: [name]) == "행복: 😀")
    }
}
