import Foundation
import ListAdapter
import ListFormat

/// Where a command that may create a log (`import`, `demo`) may create one: a directory of its
/// own. LMDB puts a log's two files, `data.mdb` and `lock.mdb`, straight into the directory it
/// is given; created in one that holds other files, they would be mixed in with them.
enum NewLogPlace {
    /// How many of the other files a refusal names.
    static let namedFiles = 3

    /// Throws an ``InputError`` when `path` is an existing directory that holds no log (no
    /// `data.mdb`, or an empty one) and holds other files: it names up to ``namedFiles`` of them,
    /// sorted, and suggests a subdirectory. A missing path, an empty directory and a log's
    /// directory pass; so does a path that cannot be listed, for the opening to report.
    static func check(_ path: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
            let entries = try? manager.contentsOfDirectory(atPath: path)
        else { return }
        let dataFile = URL(fileURLWithPath: path).appendingPathComponent("data.mdb").path
        let dataSize = (try? manager.attributesOfItem(atPath: dataFile))?[.size] as? NSNumber
        if let dataSize, dataSize.intValue > 0 { return }
        let others = entries.filter { $0 != "data.mdb" && $0 != "lock.mdb" }.sorted()
        guard !others.isEmpty else { return }
        var named = others.prefix(namedFiles).map { printable($0, quotingSpaces: true) }.joined(separator: ", ")
        if others.count > namedFiles { named += " and \(others.count - namedFiles) more" }
        let subdirectory = (path.hasSuffix("/") ? path : path + "/") + "replay.lmdb"
        throw InputError(
            "\(path) holds other files (\(named)) and no log: a new log needs a directory of its own, or its "
                + "files would be mixed in with them; pass a subdirectory, such as --log \(subdirectory)")
    }
}
