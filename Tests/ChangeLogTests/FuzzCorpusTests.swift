import ChangeLogTestSupport
import Testing

@testable import ChangeLog

/// The seed corpora of the fuzz targets (`Fuzz/Corpus`, `scripts/fuzz.sh`) run through the
/// same entry points as the fuzzers, so that a plain test run replays them and notices when a
/// format change leaves the fuzzers starting from inputs that no longer decode.
@Suite("Fuzz seed corpora")
struct FuzzCorpusTests {
    @Test("every record decoder seed is a valid record or chunk, for each of the four selectors")
    func recordSeedsDecode() throws {
        let seeds = try FuzzCorpus.seeds(of: "FuzzRecordDecoder")
        #expect(seeds.count >= 10)
        #expect(Set(seeds.compactMap(\.bytes.first)) == [0, 1, 2, 3])
        for seed in seeds {
            #expect(seed.bytes.withUnsafeBytes { FuzzEntryPoints.decodeRecord($0) }, "\(seed.name)")
        }
    }

    @Test("a record decoder seed with its checksum or last byte damaged is refused")
    func damagedRecordSeedsAreRefused() throws {
        for seed in try FuzzCorpus.seeds(of: "FuzzRecordDecoder") where seed.bytes.first == 2 {
            var damaged = seed.bytes
            damaged[damaged.count - 1] ^= 1
            #expect(!damaged.withUnsafeBytes { FuzzEntryPoints.decodeRecord($0) }, "\(seed.name)")
        }
        #expect(![UInt8]().withUnsafeBytes { FuzzEntryPoints.decodeRecord($0) })
    }
}
