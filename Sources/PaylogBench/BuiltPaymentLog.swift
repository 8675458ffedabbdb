/// A log of realistic payment events built for the read scenarios, closed, ready to be opened.
///
/// The log is made of copies of one ingested demo day: copy `c` of template payment `pay-0001` is the stream
/// `pay-0001-c`. Streams are described by the template and the number of copies instead of one entry per stream,
/// so that the list does not weigh on the memory figures of the scenarios that read the log.
struct BuiltPaymentLog: Sendable, Codable {
    /// One payment stream of the log.
    struct Stream: Sendable, Hashable, Codable {
        /// The stream (payment) id.
        var id: String
        /// Its last version.
        var version: UInt64
    }

    /// The store directory.
    var path: String
    /// Events in the log.
    var events: Int
    /// The template day's streams.
    var templateStreams: [Stream]
    /// How many whole copies of the template the log holds.
    var wholeCopies: Int
    /// The streams of the last, partial copy (copy number `wholeCopies`), with their versions there.
    var partialStreams: [Stream]
    /// The mean payload bytes per event.
    var payloadBytesPerEvent: Double
    /// The used bytes of the store per event (log, indexes and views).
    var bytesPerEvent: Double
    /// Seconds it took to build.
    var buildSeconds: Double

    /// The number of payment streams in the log.
    var streamCount: Int { templateStreams.count * wholeCopies + partialStreams.count }

    /// The stream number `index` (0 ..< ``streamCount``).
    func stream(at index: Int) -> Stream {
        let copy = index / templateStreams.count
        if copy < wholeCopies {
            let template = templateStreams[index % templateStreams.count]
            return Stream(id: BuiltPaymentLog.streamID(template.id, copy: copy), version: template.version)
        }
        return partialStreams[index - templateStreams.count * wholeCopies]
    }

    /// The id of copy `copy` of template stream `templateID`.
    static func streamID(_ templateID: String, copy: Int) -> String { "\(templateID)-\(copy)" }
}
