import Foundation

/// A type of identifiers or summaries that a ``ChangeLog`` stores as the interchange format's
/// strings, and reads back, losslessly.
///
/// The log stores every identifier and summary as a string (``LogSnapshot``); this protocol is how
/// the log, its ``ChangeLogRecorder`` and its readers (``RevisionRecord/snapshot(as:summary:)``)
/// take other types. `String`, the standard integer types and `UUID` conform; a type of your own
/// conforms by stating both directions:
///
/// ```swift
/// struct TicketID: Hashable, Sendable, LogStringConvertible {
///     var number: Int
///     var logString: String { "T-\(number)" }
///     static func parse(logString: String) -> TicketID? {
///         guard logString.hasPrefix("T-"), let number = Int(logString.dropFirst(2)),
///             logString == "T-\(number)" else { return nil }
///         return TicketID(number: number)
///     }
/// }
/// ```
///
/// A `RawRepresentable` type whose raw value conforms (a `String` or `Int` enum) and a
/// `LosslessStringConvertible` type get both members from default implementations.
///
/// The conversion must be lossless both ways: `Self.parse(logString: value.logString) == value`
/// for every value, and ``parse(logString:)`` accepts only the strings ``logString`` writes (it
/// returns `nil` for any other, such as `"05"` for an integer), so that reading a log and
/// recording what was read gives the same strings. Distinct values give distinct strings.
///
/// Reading is a static method, not an initializer, so that importing this module leaves
/// unapplied references such as `Int.init` (in `strings.compactMap(Int.init)`) unambiguous.
public protocol LogStringConvertible: Hashable, Sendable {
    /// The value as the log stores it.
    var logString: String { get }

    /// The value that ``logString`` wrote as `logString`, or `nil` when no value writes it.
    static func parse(logString: String) -> Self?
}

extension String: LogStringConvertible {
    /// The string itself.
    public var logString: String { self }

    /// The string itself; never `nil`.
    public static func parse(logString: String) -> String? { logString }
}

extension Never: LogStringConvertible {
    /// Never called: there is no value of type `Never`.
    public var logString: String {
        switch self {}
    }

    /// `nil`: no string is a `Never`, so a log whose sections have summaries does not read with
    /// `Never` section summaries.
    public static func parse(logString: String) -> Never? { nil }
}

extension LogStringConvertible where Self: LosslessStringConvertible {
    /// The value's `description`.
    public var logString: String { description }

    /// The value whose `description` is `logString`, or `nil` when `logString` does not parse or
    /// is not the value's own spelling (`"+5"` and `"05"` are not an integer's).
    public static func parse(logString: String) -> Self? {
        guard let value = Self(logString), value.description == logString else { return nil }
        return value
    }
}

extension LogStringConvertible where Self: RawRepresentable, RawValue: LogStringConvertible {
    /// The raw value's ``LogStringConvertible/logString``.
    public var logString: String { rawValue.logString }

    /// The value whose raw value reads from `logString`, or `nil` when there is none.
    public static func parse(logString: String) -> Self? {
        RawValue.parse(logString: logString).flatMap(Self.init(rawValue:))
    }
}

extension Int: LogStringConvertible {}
extension Int8: LogStringConvertible {}
extension Int16: LogStringConvertible {}
extension Int32: LogStringConvertible {}
extension Int64: LogStringConvertible {}
extension UInt: LogStringConvertible {}
extension UInt8: LogStringConvertible {}
extension UInt16: LogStringConvertible {}
extension UInt32: LogStringConvertible {}
extension UInt64: LogStringConvertible {}

extension UUID: LogStringConvertible {
    /// The UUID as `uuidString` writes it: uppercase hexadecimal in groups of 8-4-4-4-12.
    public var logString: String { uuidString }

    /// The UUID that `uuidString` writes as `logString`, or `nil` for any other string
    /// (lowercase spellings included).
    public static func parse(logString: String) -> UUID? {
        guard let uuid = UUID(uuidString: logString), uuid.uuidString == logString else { return nil }
        return uuid
    }
}
