/// An event's declared tags as the store keeps them in a ``RecordedEvent``: none declared, a list, or the
/// record's tag fields copied after its payload's frame and read when asked for.
///
/// A scan decodes every envelope: building an array and its strings per event took a third off its rate. A
/// compressed record's tag fields come right after its frame, so the frame's copy takes them along
/// (``PayloadFrame/copying(_:tail:)``) and no scan pays for them. The decoder checked them already (UTF-8 text,
/// well-formed fields), so reading them here cannot fail.
///
/// Two stored tags are equal when they give the same ``tags``, however each is kept.
struct StoredTags: Sendable, Hashable {
    private enum Form: Sendable {
        case undeclared
        case list([String])
        /// Fields 15 and 16 as stored, in the frame's tail: declared, with at least one tag.
        case fields(PayloadFrame)
    }

    private let form: Form

    /// Tags as given: nil when none were declared.
    init(_ tags: [String]?) {
        form = tags.map(Form.list) ?? .undeclared
    }

    /// The declared tags held as the record's fields in `frame`'s tail.
    init(fieldsAfter frame: PayloadFrame) {
        form = .fields(frame)
    }

    /// The tags; nil when the event declared none.
    var tags: [String]? {
        switch form {
        case .undeclared: return nil
        case .list(let tags): return tags
        case .fields(let frame): return frame.withUnsafeTail(StoredTags.tags(in:))
        }
    }

    /// The text of every field 15 of `record` (a whole record, or its tag fields), which the envelope decoder
    /// checked to be UTF-8 and well formed.
    static func tags(in record: UnsafeRawBufferPointer) -> [String] {
        var tags: [String] = []
        var reader = ProtoWireReader(record)
        while let (field, wireType) = try? reader.nextField() {
            if field == 15, wireType == 2, let text = try? reader.lengthDelimited() {
                tags.append(String(decoding: text, as: UTF8.self))
            } else if (try? reader.skip(wireType: wireType, field: field)) == nil {
                break
            }
        }
        return tags
    }

    /// True when the event declared its tags (perhaps none): ``tags`` is then not nil.
    var areDeclared: Bool {
        if case .undeclared = form { return false }
        return true
    }

    static func == (left: StoredTags, right: StoredTags) -> Bool { left.tags == right.tags }

    func hash(into hasher: inout Hasher) { hasher.combine(tags) }
}
