import QuoteBase
/// An option's value that is one of a fixed set (`--lang ko|en`, `--format json|csv|fortune`):
/// the type holds the choices, and the option's completion, placeholder and the message for a
/// wrong value are derived from it — no list of choices is spelled twice.
public protocol OptionValue: CaseIterable, Sendable, RawRepresentable where RawValue == String {}

extension OptionValue {
    /// "ko|en".
    @inlinable public static var placeholder: String { names.joined(separator: "|") }

    /// The cases' names, in order. Inlined (and so specialised) where an option is declared:
    /// a generic call from another module instantiates its types' metadata from mangled names
    /// on every start of `quotectl random` (docs/benchmarks.md).
    @inlinable public static var names: [String] {
        var names: [String] = []
        for value in allCases { names.append(value.rawValue) }
        return names
    }

    /// "ko or en", "json, csv or fortune".
    public static var choicesText: String {
        guard names.count >= 2, let last = names.last else { return names.joined() }
        return tr("\(names.dropLast().joined(separator: ", ")) or \(last)")
    }
}

extension Option {
    /// An option whose value is one of `type`'s cases.
    @inlinable public static func choice<Value: OptionValue>(_ long: String, _ type: Value.Type, short: Character? = nil,
                                                  hidden: Bool = false, required: Bool = false, help: Message) -> Option {
        .value(long, type.placeholder, short: short, completion: .choices(type.names), hidden: hidden,
               required: required, help: help)
    }
}
