extension CallbackFingerprint {
    /// The fingerprint of a report line exactly as received: the SHA-256 of its UTF-8 bytes, as for a callback's
    /// URL. A payment keeps one per recorded ``Reconciled`` line, to recognise the same line reported again.
    public init(reportLine: String) {
        self.init(rawURL: reportLine)
    }

    /// The fingerprint of the report line whose UTF-8 bytes are `reportLineBytes`, without building its string.
    public init(reportLineBytes: UnsafeRawBufferPointer) {
        self.init(rawURLBytes: reportLineBytes)
    }
}
