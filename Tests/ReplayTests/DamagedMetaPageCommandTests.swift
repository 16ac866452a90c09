import ChangeLogTestSupport
import Foundation
import Testing

/// Reading commands on a log whose newer meta page names impossible pages exit 2 with one line
/// saying the log is damaged. Left to LMDB, a main root of 0 would abort every command on its
/// assertion `root > 1`, and a last page far past the file's end would read as a map this
/// process cannot make.
@Suite("replay on damaged meta pages")
struct DamagedMetaPageCommandTests {
    @Test(
        "every reading command exits 2 with one line saying the data file is damaged",
        arguments: [
            MetaPageDamage.mainRootZero, .mainRootPastLastPage, .mainDepthTooLarge, .lastPageHuge, .lastPageLargest,
        ])
    func damagedMetaPage(damage: MetaPageDamage) async throws {
        let (directory, log) = try await ReadingCommandTests.makeLog()
        defer { directory.remove() }
        try damage.apply(toLogAt: log)
        for command in [["verify"], ["export"], ["show", "1"], ["stats"], ["log"], ["tail"]] {
            let result = try await ToolRunner.run(command + ["--log", log])
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stdout.isEmpty, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "replay: cannot open the log at \(log): its data file is damaged, or shorter than the pages its "
                        + "header says are in use"), "\(command): \(result)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(command): \(result)")
        }
    }
}
