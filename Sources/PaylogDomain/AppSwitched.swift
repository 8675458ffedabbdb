/// `AppSwitched`: the shop's app reported handing over to the provider's app.
public struct AppSwitched: Sendable, Hashable, Codable {
    /// Free text the reporter attached, if any.
    public var note: String

    /// An `AppSwitched` event.
    public init(note: String = "") {
        self.note = note
    }
}
