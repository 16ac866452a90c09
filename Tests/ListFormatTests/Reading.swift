import ListAdapter
import Testing

@testable import ListFormat

/// Reading helpers of the tests.
enum Reading {
    /// The error reading `line` as an import line gives, or `nil` when it reads.
    static func error(_ line: String) -> FormatError? {
        error(Array(line.utf8))
    }

    /// The error reading `bytes` as an import line gives, or `nil` when they read.
    static func error(_ bytes: [UInt8]) -> FormatError? {
        do {
            _ = try InterchangeFormat.readImportLine(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// `value` as the value of an unknown key of a snapshot line, with the line's other member
    /// after it unless `atEnd` (the value is cut short, and so is the line).
    static func underUnknownKey(_ value: String, atEnd: Bool = false) -> String {
        #"{"x": "# + value + (atEnd ? "" : #", "sections": []}"#)
    }
}
