import ArgumentParser
import ChangeLog
import Foundation
import ListFormat
import Synchronization

/// `--input FILE`, for the commands that read a history: an export (`replay export`'s JSON
/// Lines, plain or gzipped) read instead of a log.
///
/// The export's revisions are stored as they came (their changes, times and meta, even changes
/// that disagree with their snapshots) in a private log in a temporary directory, removed when
/// the tool exits; the command then runs over that log, so its output and exit status are the
/// ones it gives on a log holding the same revisions.
struct InputOption: ParsableArguments {
    @Option(
        name: .customLong("input"),
        help: ArgumentHelp(
            "Read this export (JSON Lines of revision lines, as `replay export` writes them; gzipped or not) "
                + "instead of a log.",
            valueName: "file"))
    var path: String?

    /// `--log` and `--input` both given: a usage error.
    func validate(with logOptions: LogOptions) throws {
        if path != nil && logOptions.explicitPath != nil {
            throw ValidationError("give either --log or --input, not both")
        }
    }

    /// The log to read: the export's revisions, or the log of `logOptions`.
    func open(_ logOptions: LogOptions) async throws -> ChangeLog {
        guard let path else { return try logOptions.openExisting() }
        return try await ExportInput.log(reading: path)
    }
}

/// An export read into a temporary log (``InputOption``).
enum ExportInput {
    /// The temporary logs' directories, and the file each was read from.
    private static let made = Mutex<[String: String]>([:])

    /// What messages call the log at `path`: `the export FILE` for an export's temporary log,
    /// `the log at PATH` otherwise.
    static func name(ofLogAt path: String) -> String {
        let file = made.withLock { made in made.first { path.hasPrefix($0.key) }?.value }
        return file.map { "the export \($0)" } ?? "the log at \(path)"
    }

    /// The path messages show for the log at `path`: the export's file for an export's log.
    static func shownPath(ofLogAt path: String) -> String {
        made.withLock { made in made.first { path.hasPrefix($0.key) }?.value } ?? path
    }

    /// The bytes of `path` (a file, or `-` for standard input), decompressed when gzipped.
    static func contents(of path: String) throws -> Data {
        let data = try readInput(path)
        guard Gzip.isGzipped(data) else { return data }
        do {
            return try Gzip.decompress(data)
        } catch {
            throw InputError("\(path): \(error)")
        }
    }

    /// The revisions of the export at `path`, as the log stores them.
    ///
    /// Every non-blank line must be a whole revision line, and the revisions must run 1, 2, 3…
    /// in order: the log they go into numbers them so, and a command's output names revisions
    /// by number.
    /// - Throws: ``InputError`` naming the first bad line.
    static func revisions(of path: String) throws -> [RevisionLine] {
        let data = try contents(of: path)
        var revisions: [RevisionLine] = []
        var number = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { continue }
            let revision: RevisionLine
            do {
                revision = try InterchangeFormat.readRevisionLine(line)
            } catch {
                throw InputError("\(path), line \(number), \(error)")
            }
            let expected = UInt64(revisions.count + 1)
            guard revision.revision == expected else {
                let after = revisions.last.map { "follows revision \($0.revision)" } ?? "is the first"
                throw InputError(
                    "\(path), line \(number): revision \(revision.revision) \(after); --input reads an export whose "
                        + "revisions run 1, 2, 3… in order, as `replay export` of a whole log writes them (expected "
                        + "revision \(expected))")
            }
            revisions.append(revision)
        }
        return revisions
    }

    /// A log holding the export's revisions as they came, in a temporary directory removed when
    /// the tool exits.
    static func log(reading path: String) async throws -> ChangeLog {
        let revisions = try revisions(of: path)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("replay-input-\(UUID().uuidString)").path
        made.withLock { made in
            if made.isEmpty { atexit { ExportInput.removeAll() } }
            made[directory] = path
        }
        let log = try ChangeLog(path: directory + "/log", options: .init(createIfMissing: true))
        let entries = revisions.map { line in
            ChangeLog.AppendEntry(
                line.snapshot, changes: line.changes, meta: line.meta,
                millisecondsSince1970: line.millisecondsSince1970)
        }
        _ = try await log.append(contentsOf: entries)
        return log
    }

    /// Removes every temporary log.
    private static func removeAll() {
        for directory in made.withLock({ $0.keys }) {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
