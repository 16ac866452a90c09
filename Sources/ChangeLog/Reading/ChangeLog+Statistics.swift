import Foundation
import ListAdapter

extension ChangeLog {
    /// Figures about a log: what `replay stats` prints.
    public struct Statistics: Hashable, Sendable {
        /// The number of revisions the log holds.
        public var revisionCount: Int = 0
        /// The oldest and the latest revision held, or `nil` for an empty log.
        public var revisions: ClosedRange<UInt64>?
        /// The append times of the oldest and latest revision, in milliseconds since 1970.
        public var timeSpan: ClosedRange<Int64>?
        /// The size of the log's data file on disk, in bytes: the bytes in use and the
        /// zero-filled space kept ahead of them, so that commits do not grow the file.
        public var bytesOnDisk: Int = 0
        /// The bytes of the data file that hold the log's pages (``ChangeLog/bytesInUse``): a
        /// high-water mark, which retention does not lower.
        public var bytesInUse: Int = 0
        /// The bytes of the pages in use that LMDB freed (after retention, mostly the dropped
        /// revisions' pages), which later appends reuse before the file grows.
        public var bytesFree: Int = 0
        /// The revision with the most items, with its item and section counts.
        public var largestSnapshot: SnapshotSize?
        /// Every revision's operations, added up.
        public var operations = LogChanges.Counts()

        /// The bytes of the pages that hold data (in use and not free), per revision held (0 for
        /// an empty log).
        public var bytesPerRevision: Int { revisionCount == 0 ? 0 : (bytesInUse - bytesFree) / revisionCount }

        /// Creates empty statistics.
        public init() {}
    }

    /// The size of one revision's snapshot.
    public struct SnapshotSize: Hashable, Sendable {
        /// The revision.
        public var revision: UInt64
        /// Its number of items.
        public var items: Int
        /// Its number of sections.
        public var sections: Int
    }

    /// The bytes of the log's data file that hold its pages, without the zero-filled space kept
    /// ahead of them (``Statistics/bytesOnDisk`` counts both). It counts the pages LMDB freed
    /// for reuse too (``Statistics/bytesFree``): it grows as the log grows, and retention does
    /// not lower it. O(1).
    public var bytesInUse: Int { store.storage.bytesInUse }

    /// Reads every revision's record once (not its snapshot: ``changes(in:batchSize:)``) and
    /// adds up the log's figures.
    ///
    /// - Parameter progress: called now and then with the number of revisions read.
    /// - Throws: ``ChangeLogError`` when a revision cannot be read.
    /// - Complexity: O(*r* + *c*), where *r* counts the revisions and *c* their operations.
    public func statistics(progress: (Int) -> Void = { _ in }) async throws(ChangeLogError) -> Statistics {
        // On an engine whose reads wait on the network, on its read threads, off the cooperative pool.
        try await withTaskExecutorPreference(store.storage.readExecutor) { () throws(ChangeLogError) in
            try await statisticsInPlace(progress: progress)
        }
    }

    private func statisticsInPlace(progress: (Int) -> Void) async throws(ChangeLogError) -> Statistics {
        var statistics = Statistics()
        let space = try store.storage.space()
        statistics.bytesOnDisk = space.bytesOnDisk
        statistics.bytesInUse = space.bytesInUse
        statistics.bytesFree = space.bytesFree
        // Both ends from one transaction: appends or a drop in another process may come between
        // two reads.
        let (first, latest) = try store.read(during: "reading") { transaction in
            (try store.first(in: transaction) ?? 0, try store.latest(in: transaction)?.revision ?? 0)
        }
        guard first > 0, latest >= first else { return statistics }
        statistics.revisions = first...latest
        var firstTime: Int64?
        var lastTime: Int64 = 0
        // The figures need no snapshot: the records' own totals say each one's size.
        for try await revision in changes(in: first...latest) {
            statistics.revisionCount += 1
            firstTime = firstTime ?? revision.millisecondsSince1970
            lastTime = revision.millisecondsSince1970
            statistics.operations += revision.changes.counts
            if revision.itemCount > statistics.largestSnapshot?.items ?? -1 {
                statistics.largestSnapshot = SnapshotSize(
                    revision: revision.revision, items: revision.itemCount, sections: revision.sectionCount)
            }
            if statistics.revisionCount % 100 == 0 { progress(statistics.revisionCount) }
        }
        if let firstTime { statistics.timeSpan = firstTime...max(firstTime, lastTime) }
        return statistics
    }
}
