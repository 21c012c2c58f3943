extension Array where Element == String {
    /// The strings with `separator` between them: the standard library's `joined(separator:)`,
    /// specialised. Its own is generic over every collection of strings and is called
    /// unspecialised from here: the first call looks the collection's associated types up at run
    /// time, a scan of every protocol conformance in the binary, which each `quotectl random` paid
    /// (docs/benchmarks.md). Declared on Array itself, it is what every `[String]` in a module
    /// importing QuoteBase calls, under the same name.
    @inlinable public func joined(separator: String) -> String {
        var text = ""
        for (index, element) in enumerated() {
            if index > 0 { text += separator }
            text += element
        }
        return text
    }
}
