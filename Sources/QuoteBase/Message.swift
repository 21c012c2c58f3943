import QuoteSystem

/// A sentence for people, written in English where it is used: `tr("cannot read \(path): \(reason)")`.
/// Its English is gettext's key (msgid), each value a positional placeholder (`cannot read
/// %1$s: %2$s`), so a translation may put them in another order (Korean puts the object before
/// the verb). scripts/po/extract.py reads the same literals out of the sources into po/quoted.pot.
public struct Message: Sendable, Hashable, ExpressibleByStringInterpolation {
    indirect enum Part: Sendable, Hashable {
        case literal(String)
        case value(String)
        /// A message inside a message ("\(choices) (default \(value))"): a value that is
        /// English in `english` and translated in `text`.
        case message(Message)
    }

    let parts: [Part]

    public init(stringLiteral value: String) {
        parts = [.literal(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.literal(literal)) }
        }

        public mutating func appendInterpolation<Value>(_ value: Value) {
            parts.append(.value(String(describing: value)))
        }

        // Text and numbers, the values most messages hold, are read without `String(describing:)`:
        // its casts to TextOutputStreamable and CustomStringConvertible each scan every protocol
        // conformance in the binary on first use, for every type (docs/benchmarks.md).
        public mutating func appendInterpolation(_ value: String) {
            parts.append(.value(value))
        }

        public mutating func appendInterpolation(_ value: Int) {
            parts.append(.value(String(value)))
        }

        /// A message inside this one keeps both readings: completion scripts take a help's
        /// English whatever the installer's language, help shows it translated.
        public mutating func appendInterpolation(_ message: Message) {
            parts.append(.message(message))
        }

        /// An optional has no one English reading: say what nil reads as before interpolating.
        // English on purpose: a compiler diagnostic for this project's programmers.
        @available(*, unavailable, message: "unwrap it: say what nil reads as")
        public mutating func appendInterpolation<Value>(_ value: Value?) {}
    }

    /// Two pieces read as one sentence (a long message split over lines); values keep their order.
    public static func + (lhs: Message, rhs: Message) -> Message {
        Message(parts: lhs.parts + rhs.parts)
    }

    private init(parts: [Part]) {
        self.parts = parts
    }

    /// A value alone, never looked up in the catalog (a setting's default as it is written: 7d,
    /// 32M, info): its English and its text are the value.
    public init(value: String) {
        parts = [.value(value)]
    }

    var values: [String] {
        parts.compactMap {
            switch $0 {
            case .literal: nil
            case .value(let text): text
            case .message(let message): message.text
            }
        }
    }

    /// The English, as written.
    public var english: String {
        parts.reduce(into: "") { text, part in
            switch part {
            case .literal(let literal): text += literal
            case .value(let value): text += value
            case .message(let message): text += message.english
            }
        }
    }

    /// The catalog's key: the English with `%1$s`, `%2$s`… for the values and, when there are
    /// values, `%` written `%%` (a message without values is its English, `%` and all).
    public var key: String {
        guard parts.contains(where: { if case .literal = $0 { false } else { true } }) else { return english }
        var key = ""
        var number = 0
        for part in parts {
            switch part {
            case .literal(let literal):
                for character in literal { key += character == "%" ? "%%" : String(character) }
            case .value, .message:
                number += 1
                key += "%\(number)$s"
            }
        }
        return key
    }

    /// In the user's language when the catalog has it, else the English.
    public var text: String {
        if parts.count == 1, case .value(let value) = parts[0] { return value }
        guard MessageCatalog.isActive, let translation = MessageCatalog.translation(of: key) else { return english }
        return Message.fill(translation, with: values) ?? english
    }

    /// `template` with its `%N$s` replaced by `values[N-1]` and `%%` by `%`, or nil when it
    /// names a value there is not, or holds any other `%` (a broken translation reads English).
    static func fill(_ template: String, with values: [String]) -> String? {
        guard !values.isEmpty else { return template }
        var result = ""
        var scalars = template.unicodeScalars[...]
        while let percent = scalars.firstIndex(of: "%") {
            result.unicodeScalars.append(contentsOf: scalars[..<percent])
            scalars = scalars[scalars.index(after: percent)...]
            if scalars.first == "%" {
                result += "%"
                scalars = scalars.dropFirst()
                continue
            }
            let digits = scalars.prefix { $0.properties.numericType != nil && $0.isASCII }
            scalars = scalars.dropFirst(digits.count)
            guard !digits.isEmpty, digits.count < 4, scalars.starts(with: "$s".unicodeScalars),
                  let number = Int(String(String.UnicodeScalarView(digits))), (1...values.count).contains(number)
            else { return nil }
            scalars = scalars.dropFirst(2)
            result += values[number - 1]
        }
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}

/// The message in the user's language (gettext's `_()`).
public func tr(_ message: Message) -> String {
    message.text
}

/// A message with a count, in the form the language takes for it (ngettext): English has
/// "1 quote" and "2 quotes", Korean one form for every count.
public func trn(_ count: Int, _ singular: Message, _ plural: Message) -> String {
    let chosen = count == 1 ? singular : plural
    guard MessageCatalog.isActive,
          let translation = MessageCatalog.translation(singular: singular.key, plural: plural.key, count: count)
    else { return chosen.english }
    return Message.fill(translation, with: chosen.values) ?? chosen.english
}

/// English declared elsewhere and shown later (an option's help in its spec), in the user's
/// language. Its literal is marked for the catalog where it is declared (`help:`, `overview:`).
public func tr(declared english: String) -> String {
    guard MessageCatalog.isActive, let translation = MessageCatalog.translation(of: english) else { return english }
    return translation
}

/// English kept for later and marked for the catalog (gettext's `N_()`): a table's heading
/// declared in a list, shown through `tr(declared:)`.
public func declared(_ english: String) -> String {
    english
}

/// A message with values kept whole, marked for the catalog, to be placed inside another
/// (a help's "from \(ConfigText.durations(range))"): English where English is wanted
/// (completion scripts), translated where the outer message is shown, or where it is
/// interpolated into text (`"\(message)"` reads its `text`).
public func declared(_ message: Message) -> Message {
    message
}

extension Message: CustomStringConvertible {
    /// Interpolated into text, a message reads in the user's language.
    public var description: String { text }
}

/// This program speaks the user's language from its first message on: quoted's text domain,
/// its catalogs where `Locations.catalogs()` finds them (read only when a message is shown).
public func speakTheUsersLanguage() {
    MessageCatalog.open(domain: "quoted", folder: { Locations.catalogs() }, languages: { Environment.variable("LANGUAGE") })
}
