import CLMDB

/// An error from the LMDB layer: LMDB's own return code with the operation that produced it,
/// or a misuse of the wrapper that LMDB itself would not catch.
///
/// The ``description`` says what went wrong and what to do about it.
public enum LMDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// LMDB (or the OS underneath it) returned a non-zero code from `operation`.
    case lmdb(code: Int32, operation: String)
    /// The environment at `path` is already open in this process. LMDB forbids opening one path twice per process.
    case alreadyOpen(path: String)
    /// The environment was closed; no further transactions can start.
    case closed
    /// A key is longer than LMDB's maximum key size.
    case keyTooLarge(size: Int, maximum: Int)
    /// The data file at `path` is shorter than its own last page: cut off (a copy that did not finish). Mapped, it
    /// would kill the process with SIGBUS at the first read past its end, so it is not opened.
    case truncated(path: String, fileBytes: Int, neededBytes: Int)
    /// A write was asked of the environment at `path`, opened read-only (``EnvironmentOptions/readOnly``).
    case readOnly(path: String)
    /// The data file at `path` is shorter than LMDB's two header (meta) pages: its creation never finished (the disk
    /// filled while it was written), so it holds nothing, and LMDB cannot open it.
    case unfinishedCreation(path: String, fileBytes: Int)
    /// The data file at `path` is shorter than LMDB's two header pages and does not begin with a readable header:
    /// cut within its first page, or not an LMDB file at all. Whether it ever held events cannot be told from it.
    case unreadableHeader(path: String, fileBytes: Int)

    /// LMDB's numeric return code, or `nil` for wrapper-level errors.
    public var code: Int32? {
        if case .lmdb(let code, _) = self { return code }
        return nil
    }

    /// True when the error is `MDB_MAP_FULL`: the memory map must grow before the write can succeed.
    public var isMapFull: Bool { code == MDB_MAP_FULL }

    /// True when the error is `MDB_KEYEXIST`: the key exists, or an append put met a key that does not sort last.
    public var isKeyExists: Bool { code == MDB_KEYEXIST }

    /// True when the error is `MDB_NOTFOUND`.
    public var isNotFound: Bool { code == MDB_NOTFOUND }

    /// LMDB's (or the C library's) message for the code.
    public var message: String {
        switch self {
        case .lmdb(let code, _):
            return String(cString: mdb_strerror(code))
        case .alreadyOpen(let path):
            return "the LMDB environment at \(path) is already open in this process"
        case .closed:
            return "the LMDB environment is closed"
        case .keyTooLarge(let size, let maximum):
            return "a key of \(size) bytes exceeds LMDB's maximum of \(maximum) bytes"
        case .truncated(let path, let fileBytes, let neededBytes):
            return "\(path)/data.mdb is \(fileBytes) bytes, but its last page ends at byte \(neededBytes): the file is "
                + "truncated, as a copy that did not finish leaves it"
        case .readOnly(let path):
            return "the store at \(path) was opened read-only, and this needs to write to it"
        case .unfinishedCreation(let path, let fileBytes):
            return "\(path)/data.mdb is \(fileBytes) bytes, less than LMDB's two header pages: the store's creation "
                + "never finished (the disk filled, or the process was stopped, while it was written)"
        case .unreadableHeader(let path, let fileBytes):
            return "\(path)/data.mdb is \(fileBytes) bytes and does not begin with LMDB's header page: it was cut short "
                + "within its first page (a copy that did not finish), or it is not an LMDB file"
        }
    }

    /// What to do about the error.
    public var advice: String {
        switch self {
        case .lmdb(let code, _):
            switch code {
            case MDB_MAP_FULL:
                return "The store grows its map automatically; if this persists, check free disk space."
            case MDB_READERS_FULL:
                return "Too many concurrent read transactions: raise maxReaders, or check for a leaked reader."
            case MDB_CORRUPTED, MDB_PANIC:
                return "The database file is damaged: stop writing, keep a copy of the directory, restore from a backup or export."
            case MDB_INVALID:
                return "The file is not an LMDB database: check the --store path."
            case MDB_VERSION_MISMATCH:
                return "The file was written by an incompatible LMDB version: use the liblmdb it was created with."
            case MDB_BAD_TXN:
                return "An earlier error inside this transaction made it unusable; the transaction was abandoned and nothing was written."
            case 5, 27: // EIO, EFBIG
                return "Writing to disk failed (the disk or a file-size limit is full, or the device failed): nothing of this write was acknowledged; free space or fix the device and retry."
            case 28: // ENOSPC
                return "The disk is full: free space and retry. Nothing that was acknowledged has been lost."
            case 13: // EACCES
                return "Permission denied: check the ownership and mode of the store directory."
            case 30, 1: // EROFS, EPERM
                return "The store's file system or data.mdb is read-only (or immutable), and paylog opens a store "
                    + "read-write unless told otherwise, since opening brings its views up to date. To read it in "
                    + "place, pass --read-only to a reading command (verify, export, audit, log, stream, status, "
                    + "analytics, replay --payment); to record, copy the store to writable storage."
            case 2: // ENOENT
                return "The directory does not exist: create it or check the --store path."
            case 20: // ENOTDIR
                return "The --store path, or a part of it, is a file, not a directory: pass the store's directory."
            case 21: // EISDIR
                return "The store directory holds a directory where data.mdb or lock.mdb should be a file: check the "
                    + "--store path (it names the directory that holds data.mdb and lock.mdb)."
            case 11: // EAGAIN
                return "Another process holds the store locked: check for a running paylog."
            default:
                return "This is LMDB's own error, which paylog does not expect here: nothing of this operation was "
                    + "written. Keep a copy of the store directory, run `paylog verify --read-only` on it, and report "
                    + "the message with the paylog version."
            }
        case .alreadyOpen:
            return "Share the one open handle instead of opening the path twice."
        case .closed:
            return "Open the store again."
        case .keyTooLarge:
            return "Use a shorter identifier."
        case .readOnly:
            return "Nothing was written. Only reading commands run on a read-only store; to record, rebuild its views "
                + "or migrate it, copy the store to writable storage and point --store at the copy."
        case .truncated:
            return "It was not opened, and nothing was written to it. Restore the store from a backup (paylog backup) "
                + "or an export (paylog import-log); keep this file if it is the only copy."
        case .unfinishedCreation:
            return "No event was ever recorded in it. Free disk space, remove that data.mdb and lock.mdb (or the "
                + "whole directory), and run the command again to create the store."
        case .unreadableHeader:
            return "It was not opened, and nothing was written to it; nothing in it can be read. If the store held "
                + "events, restore it from a backup (paylog backup) or an export (paylog import-log), and keep this "
                + "file if it is the only copy; if it was being created, remove data.mdb and lock.mdb and run again."
        }
    }

    /// A one-line description: what failed, LMDB's message and code, and the advice.
    public var description: String {
        switch self {
        case .lmdb(let code, let operation):
            return "LMDB \(operation) failed: \(message) (code \(code)). \(advice)"
        default:
            return "\(message). \(advice)"
        }
    }

    /// Throws `.lmdb(code:operation:)` unless `code` is zero.
    @inline(__always)
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(LMDBError) {
        if code != 0 { throw LMDBError.lmdb(code: code, operation: operation()) }
    }
}
