import Foundation

/// Decodes JSON text a user hands in, with the checks `JSONDecoder` leaves out: the text must be
/// UTF-8 (``JSONTextEncoding``) and JSON throughout (``JSONGrammar``), and no object may name a
/// key it reads twice (``JSONDuplicateKeys``).
/// What `replay import` (through ``SnapshotImporter``) and `replay diff` read goes through here.
package enum CheckedJSON {
    /// What is wrong with the text, in one line (``JSONInputProblem`` for decoding errors).
    package struct Problem: Error, CustomStringConvertible {
        /// The problem.
        package let description: String
    }

    /// Decodes a `T` from `json`, refusing text that is not UTF-8 before decoding it and
    /// repeated keys after: the repeated keys among `keys`, those `T`'s decoding reads.
    package static func decode<T: Decodable>(_ type: T.Type, from json: Data, reading keys: JSONKeys) throws(Problem)
        -> T
    {
        if let notUTF8 = JSONTextEncoding.notUTF8(json) {
            throw Problem(description: notUTF8.description)
        }
        let value: T
        do {
            value = try JSONDecoder().decode(type, from: json)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw Problem(description: JSONInputProblem.describe(error, in: json))
            }
            // A mistyped value named twice: the decoder read one of the two, the description
            // would quote the other (`is not a string: "x"`). The repetition is the problem.
            if let duplicate = JSONDuplicateKeys.first(in: json, reading: keys) {
                throw Problem(description: duplicate.description)
            }
            throw Problem(description: JSONInputProblem.describe(error, in: json))
        } catch {
            throw Problem(description: String(describing: error))
        }
        // The decoder accepts trailing commas, and does not look at what it does not read.
        if let violation = JSONGrammar.violation(in: json) {
            throw Problem(description: JSONInputProblem.notJSON(violation.reason, atByte: violation.offset, in: json))
        }
        if let duplicate = JSONDuplicateKeys.first(in: json, reading: keys) {
            throw Problem(description: duplicate.description)
        }
        return value
    }
}
