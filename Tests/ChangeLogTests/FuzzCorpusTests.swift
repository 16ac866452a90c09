import Foundation
import Testing

@testable import ChangeLog

/// The seed corpora of the fuzz targets (`Fuzz/Corpus`, `scripts/fuzz.sh`) run through the
/// same entry points as the fuzzers, so that a plain test run replays them and notices when a
/// format change leaves the fuzzers starting from inputs that no longer decode.
@Suite("Fuzz seed corpora")
struct FuzzCorpusTests {
    /// The files of `Fuzz/Corpus/<target>`, by name.
    static func seeds(of target: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/Corpus/\(target)").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        return try names.map { ($0, Array(try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    @Test("every record decoder seed is a valid record or chunk, for each of the three selectors")
    func recordSeedsDecode() throws {
        let seeds = try Self.seeds(of: "FuzzRecordDecoder")
        #expect(seeds.count >= 10)
        #expect(Set(seeds.compactMap(\.bytes.first)) == [0, 1, 2])
        for seed in seeds {
            #expect(seed.bytes.withUnsafeBytes { FuzzEntryPoints.decodeRecord($0) }, "\(seed.name)")
        }
    }

    @Test("a record decoder seed with its checksum or last byte damaged is refused")
    func damagedRecordSeedsAreRefused() throws {
        for seed in try Self.seeds(of: "FuzzRecordDecoder") where seed.bytes.first == 2 {
            var damaged = seed.bytes
            damaged[damaged.count - 1] ^= 1
            #expect(!damaged.withUnsafeBytes { FuzzEntryPoints.decodeRecord($0) }, "\(seed.name)")
        }
        #expect(![UInt8]().withUnsafeBytes { FuzzEntryPoints.decodeRecord($0) })
    }

    @Test("the import line seeds run through the reader: the well-formed ones decode, the others throw")
    func importLineSeeds() throws {
        let seeds = try Self.seeds(of: "FuzzImportLine")
        #expect(seeds.count >= 10)
        let decoded = seeds.filter { seed in seed.bytes.withUnsafeBytes { FuzzEntryPoints.decodeImportLine($0) } }
        #expect(decoded.count >= 5)
        #expect(decoded.count < seeds.count, "the corpus holds refused lines too")
        for seed in seeds {
            let direct = (try? SnapshotImporter.decode(line: seed.bytes, lineNumber: 1)) != nil
            #expect(seed.bytes.withUnsafeBytes { FuzzEntryPoints.decodeImportLine($0) } == direct, "\(seed.name)")
        }
    }
}
