import CLMDB
import PaylogStore

/// Why a benchmark could not run. The ``description`` says what went wrong and what to do.
public enum BenchError: Error, Sendable, CustomStringConvertible {
    /// A scenario name `--scenario` does not know.
    case unknownScenario(String)
    /// The event store failed during `step`.
    case store(step: String, EventStoreError)
    /// A raw LMDB call of the baseline (or of measuring a store's size) returned `code`.
    case lmdb(operation: String, code: Int32)
    /// A directory could not be created or removed.
    case filesystem(path: String, reason: String)
    /// Observations the benchmark generated were rejected: the workload itself is broken.
    case rejectedObservations(count: Int, firstError: String)
    /// `--keep directory` holds a payment log of `kept` events and the run asked for `asked`.
    case keptLogOfAnotherSize(directory: String, kept: Int, asked: Int)
    /// A step failed for another reason.
    case failed(step: String, reason: String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unknownScenario(let name):
            let known = BenchScenario.allCases.map(\.rawValue).joined(separator: ", ")
            return "There is no benchmark scenario \(name.debugDescription). Use one of: \(known)."
        case .store(let step, let error):
            return "The event store failed while the benchmark was \(step): \(error)"
        case .lmdb(let operation, let code):
            let message = code == -1 ? "no handle" : String(cString: mdb_strerror(code))
            return "LMDB \(operation) failed: \(message) (code \(code)). Check free disk space and the temporary "
                + "directory (TMPDIR, or --keep DIR); the benchmark needs a few GiB for a 1 M-event log."
        case .filesystem(let path, let reason):
            return "Cannot use the directory \(path): \(reason). Pass --keep with a writable directory, or set TMPDIR."
        case .rejectedObservations(let count, let firstError):
            return "The workflow rejected \(count) generated observation(s), first: \(firstError). The generated "
                + "workload no longer matches the workflow: fix the generator (DemoDay) before trusting figures."
        case .keptLogOfAnotherSize(let directory, let kept, let asked):
            let manifest = BenchWorkspace.paymentLogManifest
            return "\(directory) keeps a payment log of \(kept) events (\(manifest)), and this run asks for \(asked). "
                + "Run with --events \(kept) to replay the kept log, or pass another --keep directory (or remove "
                + "\(directory)) to build one of \(asked) events. The kept log was left as it is."
        case .failed(let step, let reason):
            return "The benchmark failed while \(step): \(reason)."
        }
    }

    /// `error` as a benchmark error raised during `step`.
    static func wrapping(_ error: any Error, step: String) -> BenchError {
        switch error {
        case let error as BenchError: error
        case let error as EventStoreError: .store(step: step, error)
        default: .failed(step: step, reason: "\(error)")
        }
    }
}
