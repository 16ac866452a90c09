import ChangeLog
import ChangeLogTestSupport
import Testing

@testable import ChangeLogTools

/// The import line fuzzer's seed corpus (`Fuzz/Corpus/FuzzImportLine`, `scripts/fuzz.sh`) run
/// through the fuzzer's entry point, beside the importer it decodes with.
@Suite("Fuzz seed corpora: import lines")
struct ImportLineFuzzCorpusTests {
    @Test("the import line seeds run through the reader: the well-formed ones decode, the others throw")
    func importLineSeeds() throws {
        let seeds = try FuzzCorpus.seeds(of: "FuzzImportLine")
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
