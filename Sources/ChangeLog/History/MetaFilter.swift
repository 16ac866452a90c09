/// A condition on a revision's annotations: `key=value` (the key holds exactly that value) or
/// `key~substring` (the key's value contains that text). `replay --where` and the server's
/// `where` parameter read them; every condition given must hold.
public struct MetaFilter: Hashable, Sendable, CustomStringConvertible {
    /// How the value is compared.
    public enum Comparison: Hashable, Sendable {
        /// The value equals the text.
        case equals
        /// The value contains the text.
        case contains
    }

    /// The annotation's key.
    public var key: String
    /// How the value is compared.
    public var comparison: Comparison
    /// The text compared with.
    public var text: String

    /// Creates a condition.
    public init(key: String, comparison: Comparison, text: String) {
        self.key = key
        self.comparison = comparison
        self.text = text
    }

    /// Reads `key=value` or `key~substring`: the first `=` or `~` ends the key, which cannot be
    /// empty.
    ///
    /// - Throws: ``ChangeLogError/Code/invalidArgument`` saying what was wrong.
    public init(parsing condition: String) throws(ChangeLogError) {
        guard let separator = condition.firstIndex(where: { $0 == "=" || $0 == "~" }) else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "the condition '\(condition)' has neither '=' nor '~': write key=value (exactly that value) "
                    + "or key~text (a value that contains the text)")
        }
        let key = String(condition[..<separator])
        guard !key.isEmpty else {
            throw ChangeLogError(
                code: .invalidArgument,
                message: "the condition '\(condition)' has no key before '\(condition[separator])': write key=value "
                    + "or key~text")
        }
        self.init(
            key: key, comparison: condition[separator] == "=" ? .equals : .contains,
            text: String(condition[condition.index(after: separator)...]))
    }

    /// Whether `meta` satisfies the condition. A missing key satisfies none.
    public func matches(_ meta: [String: String]) -> Bool {
        guard let value = meta[key] else { return false }
        switch comparison {
        case .equals:
            return value.unicodeScalars.elementsEqual(text.unicodeScalars)
        case .contains:
            return text.isEmpty || value.contains(text)
        }
    }

    /// Whether `meta` satisfies every condition of `filters` (true for none).
    public static func all(_ filters: [MetaFilter], match meta: [String: String]) -> Bool {
        filters.allSatisfy { $0.matches(meta) }
    }

    /// The condition as written: `key=value` or `key~substring`.
    public var description: String {
        key + (comparison == .equals ? "=" : "~") + text
    }
}
