/// What ``EventStore/backup(to:compact:)`` wrote.
public struct BackupReport: Sendable, Hashable {
    /// The directory holding the copy (`data.mdb`).
    public var destination: String
    /// Whether the copy was compacted: only pages in use, each database's in key order.
    public var compacted: Bool
    /// The size of the store's `data.mdb` when the copy was taken, in bytes.
    public var sourceFileBytes: Int
    /// The size of the copy's `data.mdb`, in bytes.
    public var copyFileBytes: Int
}
