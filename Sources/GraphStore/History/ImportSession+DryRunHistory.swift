/// What a dry run would record in persistent history (photosync's `fetch --dry-run` lists it).
extension ImportSession {
    /// The changes this dry run's saves made so far, as the history would record them once
    /// committed: the dry run rolls them back with their history. Empty outside a dry run, and
    /// for a container without `tracksHistory`.
    public func dryRunChanges() throws(GraphStoreError) -> [HistoryChange] {
        let outer = (enclosingWriter as? TouchRecordingWriter)?.base ?? enclosingWriter
        guard let writer = outer as? HistoryWriter else { return [] }
        do {
            var rows = HistoryChangeRows(writer.recorder.entries)
            return try HistoryJSON.decodeChanges(HistoryJSON.encode(try rows.rows(reading: writer.base)))
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw .readFailed(StoreFailure(kind: .other, message: "\(error)"))
        }
    }
}
