extension ListAdapter {
    /// What a diff gives: the new snapshot, the changes to it, and what ``DuplicatePolicy/keepFirst``
    /// dropped from the data source's contents to build it; or why there is no new snapshot.
    typealias DiffOutcome = Result<(Snapshot, Changes, [DroppedDuplicate<ItemID>]), ListAdapterError>

    /// The snapshot of `dataSource`'s contents under `duplicatePolicy`, and what it dropped: one
    /// call to the data source (on its isolation), then the snapshot built here. The contents are
    /// released on return, so that a model that mutates its state after the snapshot is built
    /// does not copy what they held.
    @concurrent
    nonisolated static func read(
        _ dataSource: DataSource, duplicatePolicy: DuplicatePolicy
    ) async -> Result<(Snapshot, [DroppedDuplicate<ItemID>]), ListAdapterError> {
        let contents: ListContents<ItemID, Summary, SectionSummary>
        do {
            contents = try await dataSource.contents()
        } catch {
            return .failure(.identifiersFailed(error))
        }
        switch duplicatePolicy {
        case .refuse:
            do {
                return .success((try contents.snapshot(), []))
            } catch {
                return .failure(.duplicateIdentifier(error))
            }
        case .keepFirst:
            let (snapshot, dropped) = contents.snapshotKeepingFirstOccurrences()
            return .success((snapshot, dropped))
        }
    }
}
