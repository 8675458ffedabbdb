extension ChildProcess {
    /// Why a child ended.
    public enum TerminationReason: Sendable {
        /// It exited; ``terminationStatus`` is its exit status.
        case exit
        /// A signal ended it; ``terminationStatus`` is the signal's number.
        case uncaughtSignal
        /// It has not ended (or was not started); ``terminationStatus`` is -1.
        case stillRunning
    }
}
