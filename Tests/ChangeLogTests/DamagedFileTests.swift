import Foundation
import ListAdapter
import Testing

@testable import ChangeLog

/// A log's data file damaged behind LMDB's back, bits flipped anywhere past its meta pages:
/// opening and reading it must fail with errors, never crash the process (which would end
/// this test run). The copies are opened as the tool opens a log it did not write
/// (`untrusted`), the open whose page walk the damage model promises this for: a trusted open
/// lets LMDB follow a flipped node flag into a crash (DAMAGE.md).
@Suite("Damaged data files")
struct DamagedFileTests {
    @Test("seeded bit flips anywhere in the data file: every read fails or succeeds, none crashes")
    func randomBitFlips() async throws {
        try await withTemporaryDirectory { path in
            let original = path + "/original"
            do {
                let log = try ChangeLog(path: original)
                for version in 0..<40 {
                    _ = try await log.append(
                        try makeSnapshot(sections: 1 + version % 4, itemsPerSection: 12, version: version))
                }
            }
            let bytes = try #require(FileManager.default.contents(atPath: original + "/data.mdb"))
            let pageSize = 4_096
            var random = SeededGenerator(seed: 20_261_122_4)
            var failures = 0
            for round in 0..<100 {
                var damaged = [UInt8](bytes)
                for _ in 0..<[1, 2, 4, 16, 64].randomElement(using: &random)! {
                    let offset = Int.random(in: (2 * pageSize)..<damaged.count, using: &random)
                    damaged[offset] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
                }
                let copy = path + "/copy-\(round)"
                try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
                #expect(FileManager.default.createFile(atPath: copy + "/data.mdb", contents: Data(damaged)))
                do {
                    let log = try ChangeLog(path: copy, options: .init(readOnly: true, untrusted: true))
                    if try await !log.verify().isValid { failures += 1 }
                    for try await _ in log.records(in: 1...40) {}
                    _ = try await log.statistics()
                } catch {
                    failures += 1
                }
            }
            // Most damage shows; some lands where nothing reads it (free pages, slack).
            #expect(failures > 20, "\(failures) of 100 damaged copies failed to read")
        }
    }
}
