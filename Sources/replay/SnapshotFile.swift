import ChangeLog
import Foundation
import ListAdapter

/// Reads one snapshot from a JSON file, with errors that name the file and the problem.
enum SnapshotFile {
    /// Reads and decodes the snapshot in the file at `path` (`-` for standard input).
    static func read(_ path: String) throws -> ListSnapshot<String, String> {
        let data: Data
        if path == "-" {
            data = try readStandardInput()
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
            let snapshot = try JSONDecoder().decode(ListSnapshot<String, String>.self, from: data)
            if let duplicate = JSONDuplicateKeys.first(in: data) {
                throw InputError("\(path): \(duplicate)")
            }
            return snapshot
        } catch let error as InputError {
            throw error
        } catch let error as DecodingError {
            throw InputError("\(path): \(JSONInputProblem.describe(error, in: data))")
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

/// Reads standard input to its end; a read that fails (a closed descriptor, a directory) is an
/// ``InputError`` naming standard input and the system's reason.
func readStandardInput() throws(InputError) -> Data {
    var data = Data()
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count == 0 { return data }
        if count < 0 {
            if errno == EINTR { continue }
            if StandardStream.input.wasClosedAtStart {
                throw InputError("standard input cannot be read: it was closed when replay started")
            }
            throw InputError("standard input cannot be read: \(String(cString: strerror(errno)))")
        }
        data.append(contentsOf: block[..<count])
    }
}
