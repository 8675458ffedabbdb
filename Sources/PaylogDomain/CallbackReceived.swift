/// `CallbackReceived`: a callback URL came back from the provider's app (or, for Square web apps, its HTTP GET).
///
/// Recorded for every distinct callback, including late ones and ones that contradict an earlier callback:
/// each is evidence. An identical repeat of a recorded callback is not recorded again.
public struct CallbackReceived: Sendable, Hashable, Codable {
    /// The callback URL exactly as received: the evidence.
    public var callbackURL: String
    /// The normalized reading of the callback at the time it was recorded.
    public var outcome: CallbackOutcome
    /// True when the payment already had a different callback recorded.
    public var isRepeat: Bool
    /// True when the payment had already failed (e.g. our timeout) when this callback arrived: a late callback.
    public var isLate: Bool
    /// True when this callback contradicts an earlier one (success after failure or the reverse).
    public var contradictsEarlier: Bool
    /// True when this callback echoes the reference of an earlier request of the payment, one a retry has replaced:
    /// it answers that attempt, so it neither fails nor contradicts the attempt in progress. Events recorded before
    /// this field existed read false.
    public var answersEarlierAttempt: Bool

    /// A `CallbackReceived` event.
    public init(
        callbackURL: String, outcome: CallbackOutcome, isRepeat: Bool, isLate: Bool, contradictsEarlier: Bool,
        answersEarlierAttempt: Bool = false
    ) {
        self.callbackURL = callbackURL
        self.outcome = outcome
        self.isRepeat = isRepeat
        self.isLate = isLate
        self.contradictsEarlier = contradictsEarlier
        self.answersEarlierAttempt = answersEarlierAttempt
    }
}
