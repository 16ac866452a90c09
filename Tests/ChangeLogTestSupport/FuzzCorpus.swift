import Foundation

/// The seed corpora of the fuzz targets, `Fuzz/Corpus/<target>`: the tests replay them through
/// the fuzzers' entry points.
package enum FuzzCorpus {
    /// The files of `Fuzz/Corpus/<target>`, by name.
    package static func seeds(of target: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/\(target)").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }
}
