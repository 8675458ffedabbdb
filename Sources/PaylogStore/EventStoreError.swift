import Foundation
import LMDBKit

/// Why an event-store operation failed. The ``description`` says what went wrong and what to do.
public enum EventStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream's version is not what the append expected. Nothing was written.
    case wrongExpectedVersion(stream: String, expected: ExpectedVersion, actual: UInt64)
    /// An event id is already stored with different content, or only some of an append's ids are stored.
    /// Nothing was written.
    case idempotencyConflict(eventID: UUID, reason: String)
    /// A stream id is empty, too long or contains a NUL byte.
    case invalidStreamID(String, reason: String)
    /// An append carried no events.
    case emptyAppend(stream: String)
    /// The same event id appears twice in one append.
    case duplicateEventInAppend(eventID: UUID)
    /// A tag an event declares is empty or too long to index. Nothing was written.
    case invalidTag(String, eventID: UUID, reason: String)
    /// A stored record could not be decoded: the file was damaged or written by an unknown format.
    case corruptRecord(position: UInt64, reason: String)
    /// An index entry of the store (not the log itself) could not be read.
    case corruptIndex(name: String, reason: String)
    /// No event at that position or with that id.
    case eventNotFound(String)
    /// The store was closed.
    case closed
    /// LMDB failed underneath.
    case storage(LMDBError)
    /// An imported event does not fit where it would go, or its hash does not match its fields.
    case importMismatch(position: UInt64, reason: String)
    /// The store directory holds a log of a format this build does not know.
    case unsupportedFormat(found: UInt32, supported: UInt32)
    /// Bringing an older store to the current log format failed; the store was left as it was.
    case migrationFailed(from: UInt32, reason: String)
    /// A view rebuild could not write what a projection produced; the live view is untouched.
    case rebuildFailed(projection: String, reason: String)
    /// An inline projection refused an event of the append (its `apply` threw). Nothing of the append was written.
    case projectionRefused(projection: String, eventID: UUID, reason: String)
    /// A projection names one of its databases as the store names one of its own (or with a `#`). Nothing was
    /// opened.
    case reservedDatabaseName(projection: String, database: String)
    /// A payload compression dictionary (given when opening, or stored in the log) could not be loaded.
    case badPayloadDictionary(number: UInt32, reason: String)
    /// A store opened read-only cannot serve this: its views are not current (they are brought up to date only by
    /// writing). Nothing was written.
    case readOnlyStore(reason: String)
    /// A directory opened read-only holds no paylog log to read (`reason`: no `meta` database, no recorded format):
    /// not a paylog store, or one never opened read-write. Nothing was written.
    case readOnlyNoLog(reason: String)
    /// A store opened read-only holds a log in an older `format`, which this release migrates only as it opens a
    /// store read-write: nothing of it, not even the log, can be read read-only. Nothing was written.
    case readOnlyNeedsMigration(format: UInt32)
    /// A backup copy could not be written to `destination`; the store itself is untouched.
    case backupFailed(destination: String, reason: String)
    /// Another process held the store's views lock exclusive for longer than an open waits: it is rebuilding the
    /// views (`paylog rebuild-views`, or a new release's first open) or importing an export. Nothing was opened.
    case viewsBusy(path: String)
    /// `operation` changes the views' generations, which needs the store to itself, and another process has it open.
    /// Nothing was changed.
    case viewsInUse(operation: String)
    /// `operation` must not interleave with another process's appends (restoring an export writes the log from
    /// position 1), and another process has the store open. Nothing was changed.
    case soleUseRefused(operation: String)
    /// A row of the `view` view cannot be read or brought up to date (`reason`): the view is damaged, the log is not
    /// (a view is rebuilt from the log). Nothing was written.
    case viewDamaged(view: String, reason: String)
    /// The `entry` of the store's `meta` database (`format`, the log format; `head`, the chain head) is missing or
    /// malformed (`reason`). Without it the log cannot be read or its end checked, so nothing was opened or written.
    case metaDamaged(entry: String, reason: String)
    /// The `view` view's checkpoint stands at `checkpoint`, past the chain head at `head`: events after `head` were
    /// removed from the log's end and the head rewritten to match (a log that would verify as a shorter, intact
    /// one), or the checkpoint was edited (``ChainHead/viewAhead(_:_:)``). Refused: an append, an import, or
    /// rebuilding that view at open, any of which would overwrite the checkpoint, the damage's only trace.
    case logCutShort(view: String, checkpoint: UInt64, head: UInt64)

    /// `error` as an event-store error: itself, a storage error for LMDB's, or a storage error describing it.
    static func wrapping(_ error: any Error) -> EventStoreError {
        switch error {
        case let error as EventStoreError: return error
        case let error as LMDBError: return error == .closed ? .closed : .storage(error)
        default: return .storage(.lmdb(code: -1, operation: "\(error)"))
        }
    }

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .wrongExpectedVersion(let stream, let expected, let actual):
            let actualText = actual == 0 ? "does not exist" : "is at version \(actual)"
            return "Stream \(stream) \(actualText), but the append expected \(expected). Nothing was written; "
                + "read the stream again and retry with the current version."
        case .idempotencyConflict(let id, let reason):
            return "Event \(id.uuidString.lowercased()) conflicts with the log: \(reason). Nothing was written; "
                + "a retried append must carry exactly the events of the first attempt, and new events need new ids."
        case .invalidStreamID(let id, let reason):
            return "Stream id \(id.debugDescription) is invalid: \(reason). Use 1–200 bytes of UTF-8 without NUL."
        case .emptyAppend(let stream):
            return "The append to stream \(stream) carried no events; pass at least one."
        case .duplicateEventInAppend(let id):
            return "Event id \(id.uuidString.lowercased()) appears twice in one append; give each event its own id."
        case .invalidTag(let tag, let id, let reason):
            return "Event \(id.uuidString.lowercased()) declares tag \(tag.prefix(64).debugDescription): \(reason). Nothing "
                + "was written; declare tags of 1–\(StoreKeys.maximumTagBytes) bytes of UTF-8."
        case .corruptRecord(let position, let reason):
            return "The record at position \(position) is damaged (\(reason)). Run `paylog verify`, keep a copy "
                + "of the store directory, and restore from an export or backup."
        case .corruptIndex(let name, let reason) where name == "events":
            // The log's own database: no index to rebuild from it.
            return "The log's `events` database is damaged (\(reason))."
        case .corruptIndex(let name, let reason):
            return "The store's `\(name)` index is damaged (\(reason)). The log itself is checked by `paylog verify`; "
                + "if it passes, `paylog export` and `paylog import-log` into a new store write every index afresh."
        case .eventNotFound(let what):
            return "No event \(what) in the log. Check the position or id: `paylog log` lists the events with their "
                + "positions, and `paylog verify` prints the last."
        case .closed:
            return "The event store is closed; open it again."
        case .storage(let error):
            return error.description
        case .importMismatch(let position, let reason):
            return "Cannot import the event at position \(position): \(reason). Nothing of this import batch was written."
        case .unsupportedFormat(let found, let supported):
            return "The store was written in log format \(found); this build reads format \(supported) and migrates "
                + "formats \(StoreKeys.oldestMigratableFormat)–\(supported - 1) when it opens them. "
                + "Use a paylog release that knows format \(found)."
        case .migrationFailed(let format, let reason):
            return "Migrating the store from log format \(format) to \(StoreKeys.currentFormat) failed: \(reason). "
                + "Nothing was changed (the migration is one transaction). Keep a copy of the store directory and "
                + "run `paylog verify` with the release that wrote it."
        case .rebuildFailed(let projection, let reason):
            return "Rebuilding the \(projection) view failed: \(reason). The live view is untouched and the log is "
                + "unchanged; this is a bug in the projection — report it with the output of `paylog replay`."
        case .projectionRefused(let projection, let eventID, let reason):
            return "The \(projection) view refused event \(eventID): \(reason). Nothing of the append was written; "
                + "check that the event's type and payload are ones this build's projections know."
        case .reservedDatabaseName(let projection, let database):
            return "The \(projection) projection names a database \(database.debugDescription), which the store keeps for "
                + "itself (\(StoreDatabases.reservedNames.sorted().joined(separator: ", ")); no `#` either). Nothing was "
                + "opened; rename the projection's database."
        case .badPayloadDictionary(let number, let reason):
            let which = number == 0 ? "The payload dictionary given to open the store" : "Payload dictionary \(number) stored in the log"
            return "\(which) cannot be loaded: \(reason). Nothing was written. A stored dictionary is part of the "
                + "evidence (the payloads compressed with it need it): keep a copy of the store directory and run "
                + "`paylog verify`."
        case .readOnlyStore(let reason):
            return "The store, opened read-only, cannot answer this: \(reason). Nothing was written. The log itself "
                + "can still be read (verify, export, audit, log, stream, replay --payment); for the views (status, "
                + "analytics), copy the store to writable storage and open the copy without --read-only, which brings "
                + "them up to date."
        case .readOnlyNoLog(let reason):
            return "The store, opened read-only, holds no log to read: \(reason). Nothing was written. Check the --store "
                + "path (it names the directory holding data.mdb); a store paylog never opened read-write holds no events."
        case .readOnlyNeedsMigration(let format):
            return "The store's log is in format \(format), which this release migrates to format "
                + "\(StoreKeys.currentFormat) as it opens a store read-write; a read-only open cannot migrate it, so no "
                + "command reads this store with --read-only, not even the log (verify, export, audit, log, stream, "
                + "replay --payment). Nothing was written. To read it and leave it as it is, copy the store directory "
                + "(`cp -a STORE COPY`, or `mdb_copy STORE COPY` while another process has it open) and open the copy "
                + "without --read-only, which migrates the copy; where writing to the store is allowed, open it "
                + "without --read-only, which migrates it (the older release then refuses it)."
        case .viewsBusy(let path):
            return "Another process has the store at \(path) to itself: it is rebuilding the views (`paylog "
                + "rebuild-views`, or a new release's first open of the store, which rebuilds a view the release changed) "
                + "or importing an export (`paylog import-log`), and still was after "
                + "\(EventStore.viewsLockPatience.components.seconds) s. Nothing was opened and nothing written; try again "
                + "when it ends (a rebuild of a 1 M-event log takes a few seconds, of a 10 M-event one about 20 s)."
        case .viewsInUse(let operation):
            return "Cannot \(operation): another process has the store open (`paylog serve`, an ingest, a status "
                + "query…), and replacing a view under it would leave it reading and writing a view that is gone. Nothing "
                + "was changed; the views as they stand keep serving. Stop the other processes (`paylog serve` last), "
                + "then run it again."
        case .soleUseRefused(let operation):
            return "Cannot \(operation): another process has the store open (`paylog serve`, an ingest, a status "
                + "query…), and this needs the store to itself: an append the other process acknowledged meanwhile would "
                + "land among the restored events. Nothing was changed. Stop the other processes (`paylog serve` last), "
                + "then run it again."
        case .viewDamaged(let view, let reason):
            return "The \(view) view is damaged: \(reason). Nothing was written, and the log is not affected (`paylog "
                + "verify` checks it). Rebuild the views from the log with `paylog rebuild-views`, then retry."
        case .metaDamaged(let entry, let reason):
            return "The store's `meta` database is damaged: its `\(entry)` entry \(reason). paylog never writes it so, "
                + "and will not guess it: nothing was opened and nothing written. Keep a copy of the store directory "
                + "as evidence; then point --store at a copy made by `paylog backup` whose `paylog verify` prints the "
                + "head position and hash you kept, or `paylog import-log` the last export into a new store."
        case .logCutShort(let view, let checkpoint, let head):
            return "The store's log looks cut short: "
                + ChainHead.cutShortProblem(view: view, checkpoint: checkpoint, head: head)
                + ". Nothing was written: appending, importing or rebuilding that view would overwrite the checkpoint, "
                + "the damage's only trace. Keep a copy of the store directory as evidence (`paylog verify --read-only` "
                + "reports the damage); then point --store at a copy made by `paylog backup` whose `paylog verify` "
                + "prints the head position and hash you kept, or `paylog import-log` the last export into a new store."
        case .backupFailed(let destination, let reason):
            let reason = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
            return "Cannot back up the store to \(destination): \(reason). The store itself is untouched; pick a new "
                + "or empty directory on a file system with room for the copy, and run the backup again."
        }
    }
}
