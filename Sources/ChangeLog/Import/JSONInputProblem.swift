import Foundation
import ListAdapter

/// Describes a `DecodingError` in one line that names the field and, where it can, the
/// offending value: `field sections[1].title is not a string: 3`.
package enum JSONInputProblem {
    /// A one-line description of `error`, which decoding `json` produced.
    package static func describe(_ error: DecodingError, in json: Data) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(quoted(key.stringValue))\(location(context.codingPath))"
        case .typeMismatch(let type, let context):
            return
                "field \(path(context.codingPath)) is not \(typeName(type))\(found(at: context.codingPath, in: json))"
        case .valueNotFound(let type, let context):
            return "field \(path(context.codingPath)) is null, expected \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "\(context.debugDescription)\(location(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }

    private static func location(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "" : " in \(path(codingPath))"
    }

    /// `sections[1].items[0].id`, or `(top level)`.
    package static func path(_ codingPath: [any CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result.isEmpty ? "(top level)" : result
    }

    /// `: <value>` with the JSON value found at `codingPath`, when it can be found.
    private static func found(at codingPath: [any CodingKey], in json: Data) -> String {
        guard var value = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else {
            return ""
        }
        for key in codingPath {
            if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
                value = array[index]
            } else if let object = value as? [String: Any], let next = object[key.stringValue] {
                value = next
            } else {
                return ""
            }
        }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])
        else { return "" }
        var text = String(decoding: data, as: UTF8.self)
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return ": \(text)"
    }

    private static func typeName(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Int.self || type == UInt64.self { return "an integer" }
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") || name.contains("Keyed") { return "an object" }
        return name
    }
}
