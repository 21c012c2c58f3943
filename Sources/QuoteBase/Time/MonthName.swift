/// The month abbreviations HTTP and RSS dates are written with: English in every locale, so a
/// fixed table and never LC_TIME's names (quotectl runs under the user's locale, Korean included).
enum MonthName {
    static let abbreviations = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// 1 to 12 for an abbreviation in any case ("Nov", "NOV"), else nil.
    static func number(_ name: some StringProtocol) -> Int? {
        abbreviations.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }
}
