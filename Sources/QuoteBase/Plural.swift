/// "1 quote", "2 quotes", "0 quotes": a count with its noun, as people write it.
public enum Plural {
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
