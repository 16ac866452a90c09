import Foundation
import ListAdapter

/// Reads one snapshot from a JSON file, with errors that name the file and the problem.
enum SnapshotFile {
    /// Reads and decodes the snapshot in the file at `path` (`-` for standard input).
    static func read(_ path: String) throws -> ListSnapshot<String, String> {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard FileManager.default.fileExists(atPath: path) else {
                throw InputError("\(path): no such file")
            }
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw InputError("\(path): cannot be read")
            }
            data = contents
        }
        do {
            return try JSONDecoder().decode(ListSnapshot<String, String>.self, from: data)
        } catch let error as DecodingError {
            throw InputError("\(path): \(JSONInputProblem.describe(error))")
        } catch {
            throw InputError("\(path): \(error)")
        }
    }
}

/// A problem with the user's input, described in one line.
struct InputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Turns `DecodingError`s into one line that names the field and what was wrong.
enum JSONInputProblem {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\(key.stringValue)\"\(at(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "field \(path(context.codingPath)) is not \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "field \(path(context.codingPath)) is null, expected \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "\(context.debugDescription)\(at(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }

    private static func at(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "" : " in \(path(codingPath))"
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
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

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is [Any].Type: return "an array"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") || name.contains("Keyed") { return "an object" }
            return name
        }
    }
}
