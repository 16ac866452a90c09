// An app's view of the log, built as an app builds it: ChangeLog, ChangeLogFile and ListAdapter
// alone, which with the package's traits off link no system library (no LMDB, no zstd).
// scripts/test.sh builds it that way; PlainBuildTests checks what it writes and what it reads.
//
//   PlainLog write PATH SEED REVISIONS   writes a file-engine log of a seeded stream of lists
//   PlainLog verify PATH                 opens the log at PATH, verifies it, prints one line;
//                                        exits 1 when it does not verify or cannot be read
import ChangeLog
import ChangeLogFile
import Foundation
import ListAdapter

/// The snapshot of revision `revision` of the stream seeded with `seed`: 4 sections of items
/// whose summaries repeat words, so that zstd finds something to compress in a full build.
func snapshot(seed: UInt64, revision: Int) throws -> LogSnapshot {
    var generator = SplitMix64(seed: seed &+ UInt64(revision))
    let words = ["milk", "eggs", "bread", "tea", "rice", "apples", "soap", "paper"]
    var sections: [LogSnapshot.Section] = []
    for section in 0..<4 {
        let count = 40 + Int(generator.next() % 20)
        let items = (0..<count).map { index in
            let word = words[Int(generator.next() % UInt64(words.count))]
            return LogSnapshot.Item(
                id: "s\(section)-item-\((index * 7 + revision) % 97)-\(index)",
                summary: "\(word) and \(word), \(words[index % words.count]) for section \(section)")
        }
        sections.append(LogSnapshot.Section(title: "Section \(section)", items: items))
    }
    return try LogSnapshot(sections: sections)
}

/// Prints `message` to standard error and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("PlainLog: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "write" where arguments.count == 4:
    guard let seed = UInt64(arguments[2]), let revisions = Int(arguments[3]), revisions > 0 else {
        fail("write PATH SEED REVISIONS: SEED and REVISIONS are numbers, REVISIONS at least 1")
    }
    do {
        let log = try ChangeLog(fileAt: arguments[1])
        for revision in 1...revisions {
            _ = try await log.append(try snapshot(seed: seed, revision: revision), meta: ["revision": "\(revision)"])
        }
        print("wrote \(revisions) revisions")
    } catch {
        fail("\(error)")
    }
case "verify" where arguments.count == 2:
    do {
        let log = try ChangeLog(
            fileAt: arguments[1], options: ChangeLog.Options(createIfMissing: false, readOnly: true))
        let report = try await log.verify()
        guard report.isValid else { fail("\(report)") }
        print("verified \(report.revisionsChecked) revisions")
    } catch {
        fail("\(error)")
    }
default:
    fail("usage: PlainLog write PATH SEED REVISIONS | PlainLog verify PATH")
}
