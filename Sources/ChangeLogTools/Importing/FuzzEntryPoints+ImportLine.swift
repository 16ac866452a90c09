import ChangeLog

extension FuzzEntryPoints {
    /// Decodes `bytes` as one line of an import file (`SnapshotImporter.decode(line:lineNumber:)`):
    /// the entry point of the `FuzzImportLine` target.
    ///
    /// - Returns: Whether the line decoded.
    @discardableResult
    package static func decodeImportLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (try? SnapshotImporter.decode(line: bytes, lineNumber: 1)) != nil
    }
}
